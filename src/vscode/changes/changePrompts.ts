import * as vscode from 'vscode';
import type { ConflictReason } from '../../core/changes/planFile.js';
import { describeRevertConflict } from '../../core/changes/revertReasons.js';

export interface ConflictSummary {
	readonly path: string;
	readonly reason: ConflictReason;
}

/** What to do when files changed since the team read them and cannot be merged automatically. */
export type ConflictChoice = 'resolve' | 'skip' | 'rerun' | undefined;

/** The notification a run with changes ends with. */
export type FinishedChoice = 'accept' | 'review' | 'reject' | undefined;

/** The questions the change review asks; tests replace them. */
export interface ChangePrompts {
	conflicts(files: readonly ConflictSummary[], others: number): Promise<ConflictChoice>;
	finished(message: string): Promise<FinishedChoice>;
}

const reasons: Record<ConflictReason, string> = {
	overlap: 'your edits overlap the team’s',
	deleted: 'it was deleted since the team read it',
	exists: 'it was created meanwhile with other content',
	modified: 'the team deletes it but you edited it',
	'too-large': 'it is over 8 MiB: only its hash was recorded, so it cannot be restored',
};

export const windowPrompts: ChangePrompts = {
	async conflicts(files, others) {
		const resolve = 'Resolve in Editor';
		const skip = others > 0 ? `Apply the Other ${others}` : undefined;
		const rerun = 'Re-run Team';
		const detail = files.map((file) => `${file.path}: ${reasons[file.reason]}`).join('\n');
		const choice = await vscode.window.showWarningMessage(
			`MassGen: ${files.length === 1 ? '1 file has' : `${files.length} files have`} changed since the team read ${files.length === 1 ? 'it' : 'them'}.`,
			{
				modal: true,
				detail: `${detail}\n\nResolve in Editor writes conflict markers into the file (unsaved) for you to resolve. Re-run Team asks the team again on the current files.`,
			},
			...[resolve, skip, rerun].filter((item): item is string => item !== undefined),
		);
		if (choice === resolve) return 'resolve';
		if (choice === rerun) return 'rerun';
		return choice !== undefined && choice === skip ? 'skip' : undefined;
	},
	async finished(message) {
		const choice = await vscode.window.showInformationMessage(message, 'Accept All', 'Review', 'Reject');
		if (choice === 'Accept All') return 'accept';
		if (choice === 'Review') return 'review';
		return choice === 'Reject' ? 'reject' : undefined;
	},
};

/** Revert Run's question when files changed since the accept in ways it cannot undo by itself. */
export interface RevertPrompts {
	conflicts(files: readonly ConflictSummary[], others: number): Promise<'resolve' | 'skip' | undefined>;
}

export const windowRevertPrompts: RevertPrompts = {
	async conflicts(files, others) {
		const resolve = 'Resolve in Editor';
		const skip = others > 0 ? `Revert the Other ${others}` : undefined;
		const detail = files.map((file) => `${file.path}: ${describeRevertConflict(file.reason)}`).join('\n');
		const choice = await vscode.window.showWarningMessage(
			`MassGen: ${files.length === 1 ? '1 file' : `${files.length} files`} cannot simply be reverted.`,
			{
				modal: true,
				detail: `${detail}\n\nResolve in Editor writes conflict markers into the file (unsaved) for you to resolve; a file you changed since it was created is kept. Nothing is written if you cancel.`,
			},
			...[resolve, skip].filter((item): item is string => item !== undefined),
		);
		if (choice === resolve) return 'resolve';
		return choice !== undefined && choice === skip ? 'skip' : undefined;
	},
};
