/**
 * What `result.json` keeps of a revision: each comment with whether the winner cites it and where
 * its lines are in the new change set (`commentsOfHunk` marks the hunks that answer it).
 */
import type { RevisionRecord } from '../../contract/revision.js';
import type { RunResult } from '../../contract/runResult.js';
import { mapRange } from '../changes/commentAnchors.js';
import type { Workspace } from '../workspace/types.js';
import { addressedComments } from '../context/reviewSection.js';
import type { Revision } from '../context/revision.js';

export async function revisionRecord(
	revision: Revision,
	result: Pick<RunResult, 'winner' | 'answers' | 'finalAnswer' | 'changes'>,
	workspace: Workspace,
): Promise<RevisionRecord> {
	const known = new Set(revision.comments.map((comment) => comment.id));
	const winner = result.winner?.agentId;
	const cited = addressedComments(
		[
			result.finalAnswer ?? '',
			...result.answers.filter((a) => a.agentId === winner).map((a) => a.content),
		].join('\n'),
		known,
	);
	const disk = workspace.createOverlay();
	const comments = await Promise.all(
		revision.comments.map(async (comment) => {
			const change = result.changes.find((entry) => entry.path === comment.path);
			// Not in the new set: the file is as the disk had it when the run began.
			const now = change ? change.content : await disk.readText(comment.path).catch(() => null);
			const then = revision.proposed.has(comment.path)
				? revision.proposed.get(comment.path)!
				: await disk.readText(comment.path).catch(() => null);
			return {
				id: comment.id,
				...(comment.ref ? { ref: comment.ref } : {}),
				path: comment.path,
				line: comment.line,
				endLine: comment.endLine,
				text: comment.text,
				addressed: cited.has(comment.id),
				now: now === null || then === null ? null : mapRange(then, now, comment),
			};
		}),
	);
	return { fromRunId: revision.fromRunId, comments, userEdited: [...revision.userEdited.keys()] };
}
