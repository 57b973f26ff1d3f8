import * as vscode from 'vscode';
import type { ConflictReason } from '../../core/changes/planFile.js';
import { describeRevertConflict } from '../../core/changes/revertReasons.js';

export interface ConflictSummary {
	readonly path: string;
	readonly reason: ConflictReason;
}

/** What to do when files changed since the team read them and cannot be merged automatically. */
export type ConflictChoice = 'resolve' | 'skip' | 'rerun' | undefined;

/** The questions the change review asks; tests replace them. */
export interface ChangePrompts {
	conflicts(files: readonly ConflictSummary[], others: number): Promise<ConflictChoice>;
	/**
	 * The notification a run with changes ends with: `message` holds its actions as command links.
	 * It shows until `closed` settles (the change set's state changed anywhere) or the user
	 * dismisses it; VS Code cannot take back a message with buttons, but it closes a progress one.
	 */
	finished(message: string, closed: Promise<void>): Promise<void>;
	/**
	 * Whether to write files that would get a secret value the run knows (`secretValueFiles`: the
	 * run log shows `[redacted]`, Accept writes the real value). Absent in a test's prompts: the modal.
	 */
	secretValues?(paths: readonly string[]): Promise<boolean>;
	/**
	 * Which run a command is for when several runs' changes wait and nothing says which (a run id,
	 * undefined: cancelled). Absent in a test's prompts: the quick pick.
	 */
	pickRun?(items: readonly RunPickItem[], placeHolder: string): Promise<string | undefined>;
}

/** A run offered by `pickRun`: named by its question (`runName`), with what it has pending. */
export interface RunPickItem {
	readonly runId: string;
	readonly label: string;
	readonly description: string;
}

const reasons = (): Record<ConflictReason, string> => ({
	overlap: vscode.l10n.t('your edits overlap the team’s'),
	unseen: vscode.l10n.t(
		'the team saw it only through a command and its view was not kept; you changed it since: compare and accept by hand',
	),
	deleted: vscode.l10n.t('it was deleted since the team read it'),
	exists: vscode.l10n.t('it was created meanwhile with other content'),
	modified: vscode.l10n.t('the team deletes it but you edited it'),
	'too-large': vscode.l10n.t('it is over 8 MiB: only its hash was recorded, so it cannot be restored'),
});

export const windowPrompts: ChangePrompts = {
	async conflicts(files, others) {
		const resolve = vscode.l10n.t('Resolve in Editor');
		const skip = others > 0 ? vscode.l10n.t('Apply the Other {0}', others) : undefined;
		const rerun = vscode.l10n.t('Re-run Team');
		const detail = files.map((file) => `${file.path}: ${reasons()[file.reason]}`).join('\n');
		const choice = await vscode.window.showWarningMessage(
			files.length === 1
				? vscode.l10n.t('MassGen: 1 file has changed since the team read it.')
				: vscode.l10n.t('MassGen: {0} files have changed since the team read them.', files.length),
			{
				modal: true,
				detail: vscode.l10n.t(
					'{0}\n\nResolve in Editor writes conflict markers into the file (unsaved) for you to resolve. Re-run Team asks the team again on the current files.',
					detail,
				),
			},
			...[resolve, skip, rerun].filter((item): item is string => item !== undefined),
		);
		if (choice === resolve) return 'resolve';
		if (choice === rerun) return 'rerun';
		return choice !== undefined && choice === skip ? 'skip' : undefined;
	},
	async finished(message, closed) {
		await vscode.window.withProgress(
			{ location: vscode.ProgressLocation.Notification, title: message, cancellable: true },
			(progress, token) => {
				// A determinate bar at 0 shows nothing: the notification is a question, not work going on.
				progress.report({ increment: 0 });
				return new Promise<void>((resolve) => {
					token.onCancellationRequested(() => resolve());
					void closed.then(resolve, resolve);
				});
			},
		);
	},
	async secretValues(paths) {
		const write = vscode.l10n.t('Write Anyway');
		const choice = await vscode.window.showWarningMessage(
			paths.length === 1
				? vscode.l10n.t('MassGen: {0} would get a secret value this run knows.', paths[0]!)
				: vscode.l10n.t('MassGen: {0} files would get a secret value this run knows.', paths.length),
			{
				modal: true,
				detail: vscode.l10n.t(
					'{0}\n\nThe team’s text for these files holds a key from the environment, .env, secret storage or the config. The run log shows it as [redacted]; Accept writes the real value. Nothing is written if you cancel.',
					paths.join('\n'),
				),
			},
			write,
		);
		return choice === write;
	},
	async pickRun(items, placeHolder) {
		const picked = await vscode.window.showQuickPick(
			items.map((item) => ({ ...item, detail: item.runId })),
			{ placeHolder },
		);
		return picked?.runId;
	},
};

/** Revert Run's question when files changed since the accept in ways it cannot undo by itself. */
export interface RevertPrompts {
	conflicts(files: readonly ConflictSummary[], others: number): Promise<'resolve' | 'skip' | undefined>;
}

export const windowRevertPrompts: RevertPrompts = {
	async conflicts(files, others) {
		const resolve = vscode.l10n.t('Resolve in Editor');
		const skip = others > 0 ? vscode.l10n.t('Revert the Other {0}', others) : undefined;
		const detail = files.map((file) => `${file.path}: ${describeRevertConflict(file.reason)}`).join('\n');
		const choice = await vscode.window.showWarningMessage(
			files.length === 1
				? vscode.l10n.t('MassGen: 1 file cannot simply be reverted.')
				: vscode.l10n.t('MassGen: {0} files cannot simply be reverted.', files.length),
			{
				modal: true,
				detail: vscode.l10n.t(
					'{0}\n\nResolve in Editor writes conflict markers into the file (unsaved) for you to resolve; a file you changed since it was created is kept. Nothing is written if you cancel.',
					detail,
				),
			},
			...[resolve, skip].filter((item): item is string => item !== undefined),
		);
		if (choice === resolve) return 'resolve';
		return choice !== undefined && choice === skip ? 'skip' : undefined;
	},
};
