import type { ChangeSetView, HunkCommentView, HunkView } from '../../protocol/changeSetView.js';
import { type LineRange, mapperCache } from './anchorMap.js';
import { commentsOfHunk, type ReviewComment } from '../../contract/revision.js';
import { type TeamThread, threadText } from './teamThread.js';

/** Characters of a comment shown in the panel's hunk row (the thread has it whole). */
const shownChars = 160;

/** A thread with where its lines are in the view's coordinates (the winner's text: hunks' `newStart`). */
export interface PlacedThread {
	readonly thread: TeamThread;
	readonly now: LineRange | null;
}

/**
 * Where each thread of a run is in the winner's text of its file: the panel's hunks number their
 * lines there, while a thread is anchored in the proposed text (the same unless hunks are unticked).
 */
export function placeThreads(
	threads: readonly TeamThread[],
	finalText: (path: string) => string | undefined,
): PlacedThread[] {
	const mapper = mapperCache();
	return threads.map((thread) => {
		const final = finalText(thread.path);
		if (final === undefined) return { thread, now: null };
		const now =
			final === thread.anchoredText ? thread.range : mapper(thread.anchoredText, final)(thread.range);
		return { thread, now: now ?? null };
	});
}

/**
 * The panel's view with the review loop in it: each hunk lists the comments on its lines (open,
 * or what the revision made of them: addressed or not) and the set says how many open comments
 * Send to Team would send.
 */
export function withComments(view: ChangeSetView, placed: readonly PlacedThread[]): ChangeSetView {
	const asComments: ReviewComment[] = placed.map(({ thread, now }) => ({
		id: thread.id,
		path: thread.path,
		line: thread.range.line,
		endLine: thread.range.endLine,
		text: threadText(thread),
		addressed: thread.outcome?.addressed ?? false,
		now,
	}));
	const byId = new Map(placed.map(({ thread }) => [thread.id, thread]));
	const mark = (path: string, hunk: HunkView): HunkView => {
		// commentsOfHunk counts `newStart` from 0, as the core's hunks do; the view's is 1-based.
		const found = commentsOfHunk(asComments, path, { newStart: hunk.newStart - 1, newLines: hunk.newLines });
		if (found.length === 0) return hunk;
		const comments = found.map((comment): HunkCommentView => {
			const thread = byId.get(comment.id)!;
			return {
				id: thread.id,
				text: comment.text.slice(0, shownChars),
				state: thread.resolved ? 'resolved' : 'open',
				...(thread.outcome
					? { commentId: thread.outcome.commentId, addressed: thread.outcome.addressed }
					: {}),
			};
		});
		return { ...hunk, comments };
	};
	const open = placed.filter(({ thread }) => !thread.resolved && threadText(thread) !== '').length;
	return {
		...view,
		openComments: open,
		files: view.files.map((file) => ({ ...file, hunks: file.hunks.map((hunk) => mark(file.path, hunk)) })),
	};
}
