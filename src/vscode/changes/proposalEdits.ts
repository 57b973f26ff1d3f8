import * as vscode from 'vscode';
import { changeUri } from './changeUri.js';
import type { ProposalWrites } from './changeContentProvider.js';
import type { PendingChangeSet } from './pendingChangeSet.js';

export interface ProposalEditsDeps {
	/** The run's set while something of it is pending. */
	readonly pending: (runId: string) => PendingChangeSet | undefined;
	/** A file's proposal changed: its proposed documents reload, the panel and lenses follow. */
	readonly changed: (runId: string, path: string) => void;
	readonly log: Pick<vscode.LogOutputChannel, 'info'>;
}

/**
 * The user's edits of the proposed side of a change diff (docs/changes.md): a save of a pending
 * file's proposed document makes its text the file's proposal in the run's pending set (memory
 * only: nothing is written to the workspace until Accept); Discard My Edit goes back to the
 * team's. Typing not yet saved is never lost: a selection change of that file waits for the save,
 * and Accept saves it first (what the diff shows is what Accept writes).
 */
export class ProposalEdits implements ProposalWrites {
	constructor(private readonly _deps: ProposalEditsDeps) {}

	canWrite(runId: string, path: string): boolean {
		return this._deps.pending(runId)?.file(path) !== undefined;
	}

	write(runId: string, path: string, text: string): void {
		const pending = this._deps.pending(runId);
		if (!pending?.setUserText(path, text)) throw vscode.FileSystemError.NoPermissions(path);
		const edited = pending.userProposal(path) !== undefined;
		this._deps.log.info(
			`change review: run ${runId}: ${path}: ${edited ? 'the proposal is your text now' : 'your text is the team’s again'} (nothing written to the workspace)`,
		);
		this._deps.changed(runId, path);
	}

	/** The proposed document of a file when it has typing not yet saved. */
	dirty(runId: string, path: string): vscode.TextDocument | undefined {
		const uri = changeUri(runId, 'proposed', path).toString();
		return vscode.workspace.textDocuments.find((doc) => doc.isDirty && doc.uri.toString() === uri);
	}

	/**
	 * Whether a selection change of a pending file must wait: its proposed document has unsaved
	 * typing, and the proposed text would change under it. The user is told to save or discard first.
	 */
	selectionWaits(runId: string, path: string): boolean {
		if (!this._deps.pending(runId) || !this.dirty(runId, path)) return false;
		void vscode.window.showInformationMessage(
			vscode.l10n.t('MassGen: save your edit of {0} first (or discard it), then change its selection.', path),
		);
		return true;
	}

	/**
	 * Saves the unsaved typing in the proposed documents of a run's pending files (`paths`: only
	 * those), so Accept writes what the diff shows; returns the paths saved.
	 */
	async saveDirty(runId: string, paths?: readonly string[]): Promise<string[]> {
		const pending = this._deps.pending(runId);
		const saved: string[] = [];
		for (const file of pending?.files() ?? []) {
			if (paths && !paths.includes(file.path)) continue;
			const doc = this.dirty(runId, file.path);
			if (doc && (await doc.save())) saved.push(file.path);
		}
		return saved;
	}

	/**
	 * Unsaved typing in the proposed documents of files leaving the set by a Reject: the user threw
	 * the change away, so the typing goes too (closing the tab must not ask to save into a file no
	 * longer pending).
	 */
	async revertDirty(runId: string, paths: readonly string[]): Promise<void> {
		for (const path of paths) {
			const doc = this.dirty(runId, path);
			if (!doc) continue;
			await vscode.window.showTextDocument(doc, { preserveFocus: false, preview: true });
			await vscode.commands.executeCommand('workbench.action.files.revert');
		}
	}

	/**
	 * Discard My Edit: the file's proposal is the team's again (with the selection it had). Unsaved
	 * typing in its proposed document goes too: the document gets the team's text and is saved.
	 */
	async discard(runId: string, path: string): Promise<boolean> {
		const pending = this._deps.pending(runId);
		if (!pending) return false;
		const doc = this.dirty(runId, path);
		const had = pending.discardUserText(path);
		if (had) this._deps.changed(runId, path);
		if (!doc) return had;
		const edit = new vscode.WorkspaceEdit();
		const end = doc.lineAt(doc.lineCount - 1).range.end;
		edit.replace(doc.uri, new vscode.Range(new vscode.Position(0, 0), end), pending.proposedText(path));
		if ((await vscode.workspace.applyEdit(edit)) && (await doc.save())) return true;
		return had;
	}
}
