/**
 * A run that revises an earlier run's proposal: the reviewer's comments on its lines and the
 * proposal as it stands (docs/changes.md, "Comments back to the team"). Shells send a
 * `RevisionRequest`; `result.json` keeps a `RevisionRecord`.
 */

/** A reviewer's comment on the proposal, as a shell gives it (the core assigns the ids agents cite). */
export interface ReviewCommentInput {
	/** Workspace-relative, `/` separators. */
	readonly path: string;
	/** 1-based line in the proposed text of that file (what the reviewer saw). */
	readonly line: number;
	/** Inclusive; default `line`. */
	readonly endLine?: number;
	/** The reviewer's words. */
	readonly text: string;
	/** The shell's own id (a comment thread's): kept as `ref`, never shown to a model. */
	readonly id?: string;
}

/** A line range, 1-based and inclusive. */
export interface LineRange {
	readonly line: number;
	readonly endLine: number;
}

/** One file of the proposal the team revises: what Accept would write now. */
export interface ProposalFile {
	readonly path: string;
	/** The proposed text (base, the hunks still selected, the user's own edits); null: deleted. */
	readonly content: string | null;
	/** Lines of `content` the user wrote themselves (an edit of the proposed side). */
	readonly userEdited?: readonly LineRange[];
}

/** "Revise run `fromRunId`'s proposal": the files still pending, as proposed now, and the comments. */
export interface RevisionRequest {
	readonly fromRunId: string;
	readonly files: readonly ProposalFile[];
	readonly comments: readonly ReviewCommentInput[];
}

export interface ReviewComment extends LineRange {
	/** `c1`, `c2`, … in the order given: what agents cite ("Addresses: c1"). */
	readonly id: string;
	readonly ref?: string;
	readonly path: string;
	readonly text: string;
	/** The winner's answer cites it. */
	readonly addressed: boolean;
	/** Its lines in the new change set's text of the file (`content`); null when the file is gone. */
	readonly now: LineRange | null;
}

export interface RevisionRecord {
	readonly fromRunId: string;
	readonly comments: readonly ReviewComment[];
	/** Files of the proposal the user had edited themselves. */
	readonly userEdited: readonly string[];
}

/**
 * The comments a hunk of the new change set answers: same file, and the comment's lines now
 * overlap the hunk's new lines or touch them (one line either side; a pure deletion is the point
 * between two lines). `newStart` is 0-based, as `Hunk` has it.
 */
export function commentsOfHunk(
	comments: readonly ReviewComment[],
	path: string,
	hunk: { readonly newStart: number; readonly newLines: number },
): ReviewComment[] {
	const first = hunk.newStart + 1;
	const last = hunk.newStart + Math.max(hunk.newLines, 1) - (hunk.newLines === 0 ? 1 : 0);
	return comments.filter(
		(comment) =>
			comment.path === path &&
			comment.now !== null &&
			comment.now.line <= last + 1 &&
			comment.now.endLine >= first - 1,
	);
}
