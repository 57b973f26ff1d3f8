/**
 * The pending change set as the panel shows it (host → webview `change-set`): files with +/-
 * counts, each file's hunks with ids, consensus counts and whether they are selected, and the
 * runner-up hunks that could replace or extend the winner's. Plain JSON only.
 */
import type { ExecutableKind } from '../contract/executableKind.js';
import type { FileOutcome } from '../contract/fileOutcome.js';
import type { ChangeKind } from '../contract/runEvents.js';

/** A file's kind of change: part of the protocol, so the webview imports it from here. */
export type { ChangeKind, ExecutableKind, FileOutcome };

/** What became of the files of a run's change set that are no longer pending (host → webview `change-outcomes`). */
export interface ChangeOutcomesView {
	readonly runId: string;
	readonly files: readonly { readonly path: string; readonly outcome: FileOutcome }[];
}

export interface ChangeSetView {
	readonly runId: string;
	/** Config id and answer label of the agent whose presentation made the changes (null: none). */
	readonly winner: { readonly agentId: string; readonly label: string } | null;
	/** Agents whose answers count for consensus ("K of N agents"): the winner plus others that answered. */
	readonly agentCount: number;
	readonly files: readonly ChangeFileView[];
	/** The reviewer's open comments on this set: what Send to Team sends (absent: none). */
	readonly openComments?: number;
}

export type UserEdit = 'none' | 'merged' | 'conflict' | 'unseen';

export interface ChangeFileView {
	/** Workspace-relative, `/`-separated; the key for `open-diff`, `accept` and `select-hunks`. */
	readonly path: string;
	readonly kind: ChangeKind;
	/** Set on an added file whose content is that of a file this change set deletes. */
	readonly renamedFrom: string | null;
	/** Lines added / removed by the current selection. */
	readonly added: number;
	readonly removed: number;
	/**
	 * Whether the user changed the file since the team read it (the run snapshot's base), and what
	 * accepting the selection would then do: `merged` (3-way, both edits kept) or `conflict`
	 * (overlapping edits, or the file was created, deleted or edited where the team adds or
	 * deletes it: accepting asks). `unseen`: the team saw the file only through a command whose
	 * view was not kept, and it changed since: the hunks are diffed against the later text, so
	 * they start unticked and accepting asks. `none`: the file is what the team read.
	 */
	readonly userEdit: UserEdit;
	/**
	 * Set when the user edited the proposal (saved the proposed side of its diff): the hunks are
	 * then base → the user's text, and Accept writes it.
	 */
	readonly edited?: true;
	/**
	 * Set on a file other tools run or obey later (CI, editor tasks, hooks, agent configs:
	 * `executablePaths.ts`), saying who; such a file starts unticked.
	 */
	readonly runsCode?: ExecutableKind;
	/** The winner's hunks, in file order. */
	readonly hunks: readonly HunkView[];
	/** Runner-up hunks the winner did not make (take one instead of, or in addition to, the winner's). */
	readonly alternatives: readonly HunkView[];
}

export interface HunkView {
	/** `final#<n>` for the winner's hunks, `alt#<n>` for runner-up hunks; unique within the file. */
	readonly id: string;
	/** 1-based first base line and line count (a pure insertion has `oldLines` 0 and goes after `oldStart - 1`). */
	readonly oldStart: number;
	readonly oldLines: number;
	/** 1-based first line and line count in the winner's (or runner-up's) version. */
	readonly newStart: number;
	readonly newLines: number;
	/** Unified-diff body lines (`-` removed, `+` added), at most `MAX_HUNK_LINES`. */
	readonly lines: readonly string[];
	/** Lines left out of `lines`. */
	readonly truncated: number;
	readonly selected: boolean;
	/**
	 * Agents (config ids) that made this change (equal after normalising whitespace): for a winner
	 * hunk the winner first, then the others.
	 */
	readonly agents: readonly string[];
	/** Agents whose change of the same lines differs only in a few names (winner hunks; absent: none). */
	readonly similar?: readonly string[];
	/** Answer labels this hunk comes from (`agent1.final`, or runner-up labels such as `agent2.1`). */
	readonly sources: readonly string[];
	/** Winner hunk ids that selecting this runner-up hunk deselects (empty for winner hunks and extras). */
	readonly replaces: readonly string[];
	/** A hunk of the user's edit of the proposal that none of the agents made ("edited by you"). */
	readonly byUser?: true;
	/** The reviewer's comments on this hunk's lines (winner hunks; absent: none). */
	readonly comments?: readonly HunkCommentView[];
}

/** A reviewer's comment thread on a hunk, and what a revision made of it. */
export interface HunkCommentView {
	/** The thread's id (the key for `comment-hunk` and the row). */
	readonly id: string;
	/** The reviewer's words (shortened). */
	readonly text: string;
	/** `resolved`: not sent on the next Send to Team. */
	readonly state: 'open' | 'resolved';
	/** Set once a revision answered it: the id the agents cited (`c1`) and whether the winner addressed it. */
	readonly commentId?: string;
	readonly addressed?: boolean;
}

/** Lines of one hunk sent to the webview; the diff editor always has the whole text. */
export const MAX_HUNK_LINES = 400;
