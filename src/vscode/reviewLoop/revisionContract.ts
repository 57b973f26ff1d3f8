/**
 * The review loop's core types as the lead's `src/contract/revision.ts` names them, until that file
 * is on main: this module then re-exports it and goes.
 */
export interface ReviewCommentInput {
	readonly path: string;
	readonly line: number;
	readonly endLine?: number;
	readonly text: string;
	readonly id?: string;
}

export interface ProposalFile {
	readonly path: string;
	readonly content: string | null;
	readonly userEdited?: readonly { readonly line: number; readonly endLine: number }[];
}

export interface RevisionRequest {
	readonly fromRunId: string;
	readonly files: readonly ProposalFile[];
	readonly comments: readonly ReviewCommentInput[];
}

export interface ReviewComment {
	readonly id: string;
	readonly ref?: string;
	readonly path: string;
	readonly line: number;
	readonly endLine: number;
	readonly text: string;
	readonly addressed: boolean;
	readonly now: { readonly line: number; readonly endLine: number } | null;
}

export interface RevisionRecord {
	readonly fromRunId: string;
	readonly comments: readonly ReviewComment[];
	readonly userEdited: readonly string[];
}

/** Comments whose `now` lines overlap the hunk's new-side lines (±1; a pure deletion is a point). */
export function commentsOfHunk(
	comments: readonly ReviewComment[],
	path: string,
	hunk: { readonly newStart: number; readonly newLines: number },
): ReviewComment[] {
	const first = hunk.newStart - 1;
	const last = hunk.newStart + Math.max(hunk.newLines, 1) - 1 + 1;
	return comments.filter(
		(comment) =>
			comment.path === path &&
			comment.now !== null &&
			comment.now.endLine >= first &&
			comment.now.line <= last,
	);
}
