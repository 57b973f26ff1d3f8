import * as vscode from 'vscode';
import type { RecordedFile } from '../../core/runStore/changeLog.js';
import { sha256 } from '../../core/workspace/sha256.js';
import { Disposable, toDisposable } from '../common/lifecycle.js';
import { readCurrent } from './workspaceFiles.js';

/**
 * Where a run's accepted files stand now: `applied` (every file as its accepts left it),
 * `undone` (every file as before: Undo, or Revert Run), `changed` (edited since, or mixed).
 * Each file's own state is `undonePaths` / `appliedPaths`.
 */
export type AcceptState = 'applied' | 'undone' | 'changed';

export interface WatchedAccept {
	readonly runId: string;
	readonly folder: vscode.Uri;
	/** What each file was before the accept and became (hashes: oversized texts keep only those). */
	readonly files: readonly RecordedFile[];
}

/** One run's followed accepts, as its files stand now. */
export interface FollowedAccept {
	readonly accept: WatchedAccept;
	readonly state: AcceptState;
	/** The followed files that are as they were before the accept (Undo, Revert Run). */
	readonly undonePaths: readonly string[];
	/** The followed files that are as the accept left them. */
	readonly appliedPaths: readonly string[];
}

/** How many runs' accepts are followed at once; the oldest is let go (its Undo no longer re-pends). */
const MAX_FOLLOWED = 16;

interface Entry extends FollowedAccept {
	/** The followed files' URIs as strings: every keystroke in any document is checked against them. */
	readonly keys: ReadonlySet<string>;
	readonly watcher: vscode.FileSystemWatcher;
	/** Latest check: an older one that finishes later must not win. */
	check: number;
}

/**
 * Follows the files of every accept, per run (the buffers and the disk), so Undo and Redo of each
 * accept are seen on their own: with run A and then run B accepted, undoing B's accept puts B's
 * files back into B's pending set and leaves A's as they are (one undoable edit restores every file
 * of one accept at once). What the status bar says after an accept follows the last one.
 */
export class AcceptWatch extends Disposable {
	private readonly _runs = new Map<string, Entry>();
	private readonly _onDidChange = this._register(new vscode.EventEmitter<string>());
	/** A run's followed accept changed state (its run id). */
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
		this._register(toDisposable(() => [...this._runs.keys()].forEach((runId) => this.forget(runId, false))));
	}

	/** The run's followed accept; undefined when none is. */
	of(runId: string): FollowedAccept | undefined {
		return this._runs.get(runId);
	}

	/** The accept followed last (the status bar's "applied"); undefined when none is. */
	get last(): FollowedAccept | undefined {
		return [...this._runs.values()].at(-1);
	}

	/** Follows an accept; another accept of the same run adds its files (a later record of a path wins). */
	follow(accept: WatchedAccept): void {
		const earlier = this._runs.get(accept.runId)?.accept.files ?? [];
		this.forget(accept.runId, false);
		const paths = new Set(accept.files.map((file) => file.path));
		const files = [...earlier.filter((file) => !paths.has(file.path)), ...accept.files];
		const merged: WatchedAccept = { ...accept, files };
		const entry: Entry = {
			accept: merged,
			keys: new Set(files.map((file) => this._uri(accept.folder, file.path).toString())),
			state: 'applied',
			undonePaths: [],
			appliedPaths: files.map((file) => file.path),
			watcher: this._watch(merged),
			check: 0,
		};
		this._runs.set(accept.runId, entry);
		for (const runId of [...this._runs.keys()].slice(0, Math.max(0, this._runs.size - MAX_FOLLOWED))) {
			this.forget(runId);
		}
		this._onDidChange.fire(accept.runId);
		void this.recheck(accept.runId).catch(() => undefined);
	}

	/** Stops following a run's accepts. */
	forget(runId: string, fire = true): void {
		const entry = this._runs.get(runId);
		if (!entry) return;
		entry.watcher.dispose();
		entry.check++;
		this._runs.delete(runId);
		if (fire) this._onDidChange.fire(runId);
	}

	/** Reads every followed file of the run again and updates its state. */
	async recheck(runId: string): Promise<void> {
		const entry = this._runs.get(runId);
		if (!entry) return;
		const check = ++entry.check;
		const { accept } = entry;
		const applied: string[] = [];
		const undone: string[] = [];
		for (const file of accept.files) {
			const { text } = await readCurrent(this._uri(accept.folder, file.path));
			const hash = text === null ? null : sha256(text);
			if (hash === file.afterSha256) applied.push(file.path);
			else if (hash === file.beforeSha256) undone.push(file.path);
		}
		if (check !== entry.check || this._runs.get(runId) !== entry) return;
		const total = accept.files.length;
		const state: AcceptState =
			applied.length === total ? 'applied' : undone.length === total ? 'undone' : 'changed';
		const same = (a: readonly string[], b: readonly string[]) =>
			a.length === b.length && a.every((path, i) => path === b[i]);
		if (state === entry.state && same(undone, entry.undonePaths) && same(applied, entry.appliedPaths)) return;
		this._runs.set(runId, { ...entry, state, undonePaths: undone, appliedPaths: applied });
		this._onDidChange.fire(runId);
	}

	private _uri(folder: vscode.Uri, path: string): vscode.Uri {
		return vscode.Uri.joinPath(folder, ...path.split('/'));
	}

	private _touched(uri: vscode.Uri): void {
		const key = uri.toString();
		for (const [runId, entry] of this._runs) {
			if (entry.keys.has(key)) void this.recheck(runId).catch(() => undefined);
		}
	}

	private _watch(accept: WatchedAccept): vscode.FileSystemWatcher {
		const paths = accept.files.map((file) => file.path.replace(/[{}[\]*?,]/g, '?'));
		const watcher = vscode.workspace.createFileSystemWatcher(
			new vscode.RelativePattern(accept.folder, `{${paths.join(',')}}`),
		);
		const touched = (uri: vscode.Uri) => this._touched(uri);
		watcher.onDidChange(touched);
		watcher.onDidCreate(touched);
		watcher.onDidDelete(touched);
		return watcher;
	}
}
