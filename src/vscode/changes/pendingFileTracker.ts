import * as vscode from 'vscode';
import { Disposable, toDisposable } from '../common/lifecycle.js';
import type { PendingChangeSet } from './pendingChangeSet.js';
import { readCurrent } from './workspaceFiles.js';

/**
 * Watches the pending files of every pending set (buffers and disk) and hands each one's current
 * text to its set, which compares it with the base its team read (that run snapshot's); also
 * tracks when the user last typed, so a diff never opens mid-keystroke.
 */
export class PendingFileTracker extends Disposable {
	private _lastUserEdit = 0;
	private _watchers: vscode.FileSystemWatcher[] = [];
	/** Latest check per run and path: an older check that finishes later must not win. */
	private readonly _checks = new Map<string, number>();

	constructor(
		private readonly _pending: () => readonly PendingChangeSet[],
		private readonly _onCurrentChanged: (set: PendingChangeSet) => void,
	) {
		super();
		this._register(vscode.workspace.onDidChangeTextDocument((event) => this._onEdited(event)));
		this._register(vscode.workspace.onDidSaveTextDocument((doc) => void this.refresh(doc.uri)));
		this._register(toDisposable(() => this._watchers.forEach((watcher) => watcher.dispose())));
	}

	/** Watches the pending sets' files on disk (edits outside any buffer make them stale too). */
	watch(): void {
		this._watchers.forEach((watcher) => watcher.dispose());
		this._watchers = this._pending().map((pending) => {
			const paths = pending.files().map((file) => file.path.replace(/[{}[\]*?,]/g, '?'));
			const watcher = vscode.workspace.createFileSystemWatcher(
				new vscode.RelativePattern(pending.run.folder, `{${paths.join(',')}}`),
			);
			const refresh = (uri: vscode.Uri) => void this.refresh(uri);
			watcher.onDidChange(refresh);
			watcher.onDidCreate(refresh);
			watcher.onDidDelete(refresh);
			return watcher;
		});
	}

	/** Re-reads one file's current text for every pending set that has it. */
	async refresh(uri: vscode.Uri): Promise<void> {
		await Promise.all(this._pending().map((pending) => this._refreshIn(pending, uri)));
	}

	private async _refreshIn(pending: PendingChangeSet, uri: vscode.Uri): Promise<void> {
		const path = relativePath(pending.run.folder.uri, uri);
		const file = path !== undefined ? pending.file(path) : undefined;
		if (!file) return;
		const key = `${pending.runId}\0${file.path}`;
		const check = (this._checks.get(key) ?? 0) + 1;
		this._checks.set(key, check);
		const { text } = await readCurrent(uri);
		if (this._checks.get(key) !== check) return;
		if (pending.setCurrent(file.path, text)) this._onCurrentChanged(pending);
	}

	/** Resolves once the user has not typed for `idleMs` (at most 30 s later). */
	async whenUserIdle(idleMs: number): Promise<void> {
		const deadline = Date.now() + 30_000;
		while (Date.now() - this._lastUserEdit < idleMs && Date.now() < deadline) {
			await new Promise((resolve) => setTimeout(resolve, 200));
		}
	}

	private _onEdited(event: vscode.TextDocumentChangeEvent): void {
		if (event.document.uri.scheme !== 'file') return;
		if (event.contentChanges.length > 0) this._lastUserEdit = Date.now();
		// Also without content changes: the event then reports a dirty-state change.
		void this.refresh(event.document.uri);
	}
}

function relativePath(root: vscode.Uri, uri: vscode.Uri): string | undefined {
	const base = root.path.endsWith('/') ? root.path : `${root.path}/`;
	return uri.scheme === root.scheme && uri.path.startsWith(base) ? uri.path.slice(base.length) : undefined;
}
