import * as vscode from 'vscode';
import { Disposable, toDisposable } from '../common/lifecycle.js';
import type { PendingChangeSet } from './pendingChangeSet.js';
import { readCurrent } from './workspaceFiles.js';

/**
 * Watches the pending files (buffers and disk) and hands each one's current text to the pending
 * set, which compares it with the base the team read (the run snapshot's); also tracks when the
 * user last typed, so a diff never opens mid-keystroke.
 */
export class PendingFileTracker extends Disposable {
	private _lastUserEdit = 0;
	private _watcher: vscode.FileSystemWatcher | undefined;
	/** Latest check per path: an older check that finishes later must not win. */
	private readonly _checks = new Map<string, number>();

	constructor(
		private readonly _pending: () => PendingChangeSet | undefined,
		private readonly _onCurrentChanged: () => void,
	) {
		super();
		this._register(vscode.workspace.onDidChangeTextDocument((event) => this._onEdited(event)));
		this._register(vscode.workspace.onDidSaveTextDocument((doc) => void this.refresh(doc.uri)));
		this._register(toDisposable(() => this._watcher?.dispose()));
	}

	/** Watches the files of `pending` on disk (edits outside any buffer make them stale too). */
	watch(pending: PendingChangeSet | undefined): void {
		this._watcher?.dispose();
		this._watcher = undefined;
		if (!pending) return;
		const paths = pending.files().map((file) => file.path.replace(/[{}[\]*?,]/g, '?'));
		const watcher = vscode.workspace.createFileSystemWatcher(
			new vscode.RelativePattern(pending.run.folder, `{${paths.join(',')}}`),
		);
		const refresh = (uri: vscode.Uri) => void this.refresh(uri);
		watcher.onDidChange(refresh);
		watcher.onDidCreate(refresh);
		watcher.onDidDelete(refresh);
		this._watcher = watcher;
	}

	/** Re-reads one pending file's current text. */
	async refresh(uri: vscode.Uri): Promise<void> {
		const pending = this._pending();
		const path = pending && relativePath(pending.run.folder.uri, uri);
		const file = path !== undefined ? pending?.file(path) : undefined;
		if (!pending || !file) return;
		const check = (this._checks.get(file.path) ?? 0) + 1;
		this._checks.set(file.path, check);
		const { text } = await readCurrent(uri);
		if (this._checks.get(file.path) !== check) return;
		if (pending.setCurrent(file.path, text)) this._onCurrentChanged();
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
