import * as vscode from 'vscode';
import {
	type AnswerChanges,
	allHunkIds,
	type ReviewChangeSet,
	type ReviewFile,
	targetOf,
	toggleHunk,
} from '../../core/changes/changeSet.js';
import { isUnkept, planFile } from '../../core/changes/planFile.js';
import type { ProposalFile } from '../../contract/revision.js';
import { proposalOnCurrent, type UserProposal, withUserText } from '../../core/changes/userProposal.js';
import { sha256 } from '../../core/workspace/sha256.js';
import type { ChangeSetView, UserEdit } from '../../protocol/changeSetView.js';
import { runName } from '../common/runName.js';
import type { FinishedRun } from '../run/runTypes.js';
import { executableFlag, toChangeSetView } from './toChangeSetView.js';

/** How a file left the pending set. */
export type FileOutcome = 'accepted' | 'rejected';

/**
 * A run's change set while the user reviews it: the files still pending, the hunk selection
 * per file (the winner's hunks by default, none for files other tools run) and each file's current text (buffer or disk), to
 * tell which files the user changed since the team read them.
 */
export class PendingChangeSet {
	private readonly _files: Map<string, ReviewFile>;
	private readonly _selection = new Map<string, Set<string>>();
	/** Current text per path as last seen (null: no file); absent until first checked. */
	private readonly _current = new Map<string, string | null>();
	private readonly _userEdits = new Map<string, UserEdit>();
	/** Files no longer pending, and how they left. */
	private readonly _outcomes = new Map<string, FileOutcome>();
	/** Files whose proposal the user wrote (saved the proposed side of their diff). */
	private readonly _proposals = new Map<string, UserProposal>();

	constructor(
		readonly run: FinishedRun,
		readonly set: ReviewChangeSet,
		readonly answers: readonly AnswerChanges[],
	) {
		this._files = new Map(set.files.map((file) => [file.path, file]));
		// A file other tools run later (a CI workflow, an editor task, a hook) starts unticked: the
		// user ticks it after reading it; Accept leaves it out otherwise. So does a file with an
		// unkept base: its hunks are diffed against a version the team never saw (perhaps the
		// user's own edit), so they are not the team's change to accept by default.
		for (const file of set.files) {
			const unticked = Boolean(executableFlag(file)) || isUnkept(file, sha256);
			this._selection.set(file.path, new Set(unticked ? [] : allHunkIds(file)));
		}
	}

	get runId(): string {
		return this.set.runId;
	}

	/** The run as the user knows it, by its question (diff titles, the notification, the run pick). */
	get name(): string {
		return runName(this.run.request.question, 40);
	}

	get isEmpty(): boolean {
		return this._files.size === 0;
	}

	/** Pending files in change-set order (a file the user edited: as the user's proposal). */
	files(): ReviewFile[] {
		return [...this._files.values()].map((file) => this._proposals.get(file.path)?.file ?? file);
	}

	file(path: string): ReviewFile | undefined {
		const file = this._files.get(path);
		return file && (this._proposals.get(path)?.file ?? file);
	}

	/** Every file of the run, also those already accepted or rejected (the diffs stay readable). */
	anyFile(path: string): ReviewFile | undefined {
		return this._proposals.get(path)?.file ?? this.teamFile(path);
	}

	/** A file of the run as the team proposed it (whatever the user wrote). */
	teamFile(path: string): ReviewFile | undefined {
		return this.set.files.find((file) => file.path === path);
	}

	/** The user's proposal for a file, when they edited it. */
	userProposal(path: string): UserProposal | undefined {
		return this._proposals.get(path);
	}

	/**
	 * The user saved the proposed side of a pending file's diff: from now on the file's proposal is
	 * `text` (re-split into hunks against the base, all selected). Text equal to the team's
	 * proposal is no edit. Returns false for a file that is not pending.
	 */
	setUserText(path: string, text: string): boolean {
		const team = this._files.get(path);
		if (!team) return false;
		const earlier = this._proposals.get(path);
		const teamSelection = earlier?.teamSelection ?? this.selected(path);
		const teamText = earlier?.teamText ?? this.proposedText(path);
		if (text === teamText) {
			this.discardUserText(path);
			return true;
		}
		const file = withUserText(team, text, teamSelection);
		this._proposals.set(path, { text, teamText, team, teamSelection, file });
		this._selection.set(path, new Set(file.hunks.map((hunk) => hunk.id)));
		this._updateUserEdit(path);
		return true;
	}

	/** Discard My Edit: the file's proposal is the team's again, with the selection it had. */
	discardUserText(path: string): boolean {
		const proposal = this._proposals.get(path);
		if (!proposal) return false;
		this._proposals.delete(path);
		this._selection.set(path, new Set(proposal.teamSelection));
		this._updateUserEdit(path);
		return true;
	}

	/**
	 * The pending files as the team is told them on a follow-up (`RevisionRequest.files`): what
	 * Accept would write now (merged onto the user's current text as Accept merges it), and the
	 * lines the user wrote themselves. A file with nothing selected, or whose merge conflicts, is
	 * left out.
	 */
	proposalFiles(): ProposalFile[] {
		return this.files().flatMap((file) => {
			const told = proposalOnCurrent(
				{
					file,
					selected: this.selected(file.path),
					current: this._current.get(file.path),
					proposal: this._proposals.get(file.path),
				},
				sha256,
			);
			return told ? [told] : [];
		});
	}

	uri(path: string): vscode.Uri {
		return vscode.Uri.joinPath(this.run.folder.uri, ...path.split('/'));
	}

	selected(path: string): ReadonlySet<string> {
		return this._selection.get(path) ?? new Set();
	}

	/**
	 * What Accept File on a file's diff writes instead of its selection (undefined: the selection).
	 * A file other tools run, or one with an unkept base, with nothing ticked (how it starts) gets
	 * the winner's whole change: the user chose it from its diff (an unkept one then asks first).
	 */
	acceptFileHunks(path: string): readonly string[] | undefined {
		const file = this.file(path);
		const unticked = file && (Boolean(executableFlag(file)) || isUnkept(file, sha256));
		return file && unticked && this.selected(path).size === 0 ? allHunkIds(file) : undefined;
	}

	/** Switches hunks on or off; returns whether anything changed. */
	select(path: string, ids: readonly string[], on: boolean): boolean {
		const file = this.file(path);
		if (!file) return false;
		const before = this.selected(path);
		let next = new Set(before);
		for (const id of ids) next = toggleHunk(file, next, id, on);
		if (next.size === before.size && [...next].every((id) => before.has(id))) return false;
		this._selection.set(path, next);
		this._updateUserEdit(path);
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

	/**
	 * Records a file's current text (buffer or disk; null: no file); returns whether its user-edit
	 * state changed (so typing in a file re-renders the panel only when that state flips).
	 */
	setCurrent(path: string, text: string | null): boolean {
		this._current.set(path, text);
		return this._updateUserEdit(path);
	}

	/**
	 * Whether the user changed the file since the team read it, and if so whether accepting the
	 * current selection (the winner's whole change when nothing is selected) merges or conflicts.
	 */
	userEdit(path: string): UserEdit {
		return this._userEdits.get(path) ?? 'none';
	}

	private _updateUserEdit(path: string): boolean {
		const before = this.userEdit(path);
		const file = this.file(path);
		const current = this._current.get(path);
		let state: UserEdit = 'none';
		if (file && current !== undefined) {
			const unchanged =
				file.kind === 'add' ? current === null : current !== null && sha256(current) === file.baseHash;
			const selected = this.selected(path).size > 0 ? this.selected(path) : new Set(allHunkIds(file));
			if (isUnkept(file, sha256)) {
				// Whatever the selection, accepting it asks (`planFile`'s 'unseen'): say why.
				state = 'unseen';
			} else if (!unchanged) {
				state =
					planFile(file, targetOf(file, selected), current, sha256).outcome === 'conflict'
						? 'conflict'
						: 'merged';
			}
		}
		this._userEdits.set(path, state);
		return state !== before;
	}

	/** Takes files out of the pending set (accepted: written or already so; rejected: dropped). */
	remove(paths: Iterable<string>, outcome: FileOutcome): void {
		for (const path of paths) {
			if (this._files.delete(path)) this._outcomes.set(path, outcome);
		}
	}

	/**
	 * Puts accepted files back into the pending set (their accept was undone), in change-set order
	 * with the selection they had; returns the paths it put back.
	 */
	restore(paths: Iterable<string>): string[] {
		const back = [...paths].filter((path) => this._outcomes.get(path) === 'accepted');
		if (back.length === 0) return [];
		for (const path of back) this._outcomes.delete(path);
		const pending = new Set([...this._files.keys(), ...back]);
		this._files.clear();
		for (const file of this.set.files) if (pending.has(file.path)) this._files.set(file.path, file);
		return back;
	}

	/** How a file of the run left the pending set; undefined while it is pending (or not in the run). */
	outcome(path: string): FileOutcome | undefined {
		return this._outcomes.get(path);
	}

	view(): ChangeSetView {
		return toChangeSetView({
			set: this.set,
			files: this.files(),
			answers: this.answers,
			selected: (path) => this.selected(path),
			userEdit: (path) => this.userEdit(path),
			edited: (path) => this._proposals.has(path),
		});
	}
}
