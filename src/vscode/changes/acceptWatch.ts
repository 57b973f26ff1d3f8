import * as vscode from 'vscode';
import type { RecordedFile } from '../../core/runStore/changeLog.js';
import { sha256 } from '../../core/workspace/sha256.js';
import { Disposable, toDisposable } from '../common/lifecycle.js';
import { readCurrent } from './workspaceFiles.js';

/**
 * Where the last accepted files stand now: `applied` (every file as the accept left it),
 * `undone` (every file as before it: Undo, or Revert Run), `changed` (edited since, or mixed).
 * Each file's own state is `undonePaths` / `appliedPaths`.
 */
export type AcceptState = 'applied' | 'undone' | 'changed';

export interface WatchedAccept {
	readonly runId: string;
	readonly folder: vscode.Uri;
	/** What each file was before the accept and became (hashes: oversized texts keep only those). */
	readonly files: readonly RecordedFile[];
}

/**
 * Follows the files of a run's accepts (the buffers and the disk), so what the status bar says
 * after an accept follows Undo and Redo of it (one undoable edit restores every file at once).
 */
export class AcceptWatch extends Disposable {
	private _accept: WatchedAccept | undefined;
	/** The followed files' URIs as strings: every keystroke in any document is checked against them. */
	private _keys = new Set<string>();
	private _state: AcceptState | undefined;
	/** The followed files as before the accept, and as the accept left them (the others were edited since). */
	private _undone: readonly string[] = [];
	private _applied: readonly string[] = [];
	private _watcher: vscode.FileSystemWatcher | undefined;
	/** Latest check: an older one that finishes later must not win. */
	private _check = 0;
	private readonly _onDidChange = this._register(new vscode.EventEmitter<AcceptState | undefined>());
	readonly onDidChange = this._onDidChange.event;

	constructor() {
		super();
		this._register(vscode.workspace.onDidChangeTextDocument((event) => this._touched(event.document.uri)));
		this._register(
			vscode.workspace.onDidCreateFiles((event) => event.files.forEach((uri) => this._touched(uri))),
		);
		this._register(
			vscode.workspace.onDidDeleteFiles((event) => event.files.forEach((uri) => this._touched(uri))),
		);
		this._register(toDisposable(() => this._watcher?.dispose()));
	}

	get accept(): WatchedAccept | undefined {
		return this._accept;
	}

	/** Undefined when no accept is followed. */
	get state(): AcceptState | undefined {
		return this._state;
	}

	/** The followed files that are as they were before the accept (Undo, Revert Run). */
	get undonePaths(): readonly string[] {
		return this._undone;
	}

	/** The followed files that are as the accept left them. */
	get appliedPaths(): readonly string[] {
		return this._applied;
	}

	/** Follows an accept; another accept of the same run adds its files (a later record of a path wins). */
	follow(accept: WatchedAccept): void {
		const earlier = this._accept?.runId === accept.runId ? this._accept.files : [];
		const paths = new Set(accept.files.map((file) => file.path));
		this._accept = {
			...accept,
			files: [...earlier.filter((file) => !paths.has(file.path)), ...accept.files],
		};
		this._keys = new Set(this._accept.files.map((file) => this._uri(accept.folder, file.path).toString()));
		this._state = 'applied';
		this._undone = [];
		this._applied = this._accept.files.map((file) => file.path);
		this._watch();
		this._onDidChange.fire(this._state);
		void this.recheck().catch(() => undefined);
	}

	/** Stops following (a new change set arrived). */
	clear(): void {
		this._accept = undefined;
		this._keys = new Set();
		this._state = undefined;
		this._undone = [];
		this._applied = [];
		this._watcher?.dispose();
		this._watcher = undefined;
		this._check++;
		this._onDidChange.fire(undefined);
	}

	/** Reads every followed file again and updates the state. */
	async recheck(): Promise<void> {
		const accept = this._accept;
		if (!accept) return;
		const check = ++this._check;
		const applied: string[] = [];
		const undone: string[] = [];
		for (const file of accept.files) {
			const { text } = await readCurrent(this._uri(accept.folder, file.path));
			const hash = text === null ? null : sha256(text);
			if (hash === file.afterSha256) applied.push(file.path);
			else if (hash === file.beforeSha256) undone.push(file.path);
		}
		if (check !== this._check || this._accept !== accept) return;
		const total = accept.files.length;
		const state: AcceptState =
			applied.length === total ? 'applied' : undone.length === total ? 'undone' : 'changed';
		const same = (a: readonly string[], b: readonly string[]) =>
			a.length === b.length && a.every((path, i) => path === b[i]);
		if (state === this._state && same(undone, this._undone) && same(applied, this._applied)) return;
		this._state = state;
		this._undone = undone;
		this._applied = applied;
		this._onDidChange.fire(state);
	}

	private _uri(folder: vscode.Uri, path: string): vscode.Uri {
		return vscode.Uri.joinPath(folder, ...path.split('/'));
	}

	private _touched(uri: vscode.Uri): void {
		if (this._keys.has(uri.toString())) void this.recheck().catch(() => undefined);
	}

	private _watch(): void {
		this._watcher?.dispose();
		const accept = this._accept!;
		const paths = accept.files.map((file) => file.path.replace(/[{}[\]*?,]/g, '?'));
		const watcher = vscode.workspace.createFileSystemWatcher(
			new vscode.RelativePattern(accept.folder, `{${paths.join(',')}}`),
		);
		const touched = (uri: vscode.Uri) => this._touched(uri);
		watcher.onDidChange(touched);
		watcher.onDidCreate(touched);
		watcher.onDidDelete(touched);
		this._watcher = watcher;
	}
}
