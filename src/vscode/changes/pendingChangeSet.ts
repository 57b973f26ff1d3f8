import * as vscode from 'vscode';
import { type AnswerChanges, allHunkIds, type ReviewChangeSet, type ReviewFile, targetOf, toggleHunk } from '../../core/changes/changeSet';
import type { ChangeSetView } from '../../protocol/changeSetView';
import type { FinishedRun } from '../run/runTypes';
import { toChangeSetView } from './toChangeSetView';

/**
 * A run's change set while the user reviews it: the files still pending, the hunk selection
 * per file (the winner's hunks by default) and which files the user has edited since.
 */
export class PendingChangeSet {
	private readonly _files: Map<string, ReviewFile>;
	private readonly _selection = new Map<string, Set<string>>();
	private readonly _stale = new Map<string, boolean>();

	constructor(
		readonly run: FinishedRun,
		readonly set: ReviewChangeSet,
		readonly answers: readonly AnswerChanges[],
		/** The workspace folder the paths are relative to. */
		readonly root: vscode.Uri,
	) {
		this._files = new Map(set.files.map((file) => [file.path, file]));
		for (const file of set.files) this._selection.set(file.path, new Set(allHunkIds(file)));
	}

	get runId(): string {
		return this.set.runId;
	}

	get isEmpty(): boolean {
		return this._files.size === 0;
	}

	/** Pending files in change-set order. */
	files(): ReviewFile[] {
		return [...this._files.values()];
	}

	file(path: string): ReviewFile | undefined {
		return this._files.get(path);
	}

	/** Every file of the run, also those already accepted or rejected (the diffs stay readable). */
	anyFile(path: string): ReviewFile | undefined {
		return this.set.files.find((file) => file.path === path);
	}

	uri(path: string): vscode.Uri {
		return vscode.Uri.joinPath(this.root, ...path.split('/'));
	}

	selected(path: string): ReadonlySet<string> {
		return this._selection.get(path) ?? new Set();
	}

	/** Switches hunks on or off; returns whether anything changed. */
	select(path: string, ids: readonly string[], on: boolean): boolean {
		const file = this._files.get(path);
		if (!file) return false;
		const before = this.selected(path);
		let next = new Set(before);
		for (const id of ids) next = toggleHunk(file, next, id, on);
		if (next.size === before.size && [...next].every((id) => before.has(id))) return false;
		this._selection.set(path, next);
		return true;
	}

	/** What Accept writes for a file with its current selection (base + selected hunks). */
	proposedText(path: string): string {
		const file = this.anyFile(path);
		if (!file) return '';
		const target = targetOf(file, this.selected(path));
		if (target.op === 'write') return target.text;
		return target.op === 'delete' ? '' : file.base;
	}

	isStale(path: string): boolean {
		return this._stale.get(path) ?? false;
	}

	/** Returns whether the flag changed. */
	setStale(path: string, stale: boolean): boolean {
		if (this.isStale(path) === stale) return false;
		this._stale.set(path, stale);
		return true;
	}

	remove(paths: Iterable<string>): void {
		for (const path of paths) this._files.delete(path);
	}

	view(): ChangeSetView {
		return toChangeSetView({
			set: this.set,
			files: this.files(),
			answers: this.answers,
			selected: (path) => this.selected(path),
			stale: (path) => this.isStale(path),
		});
	}
}
