/**
 * What `result.json` keeps of a revision: each comment with whether the winner cites it and where
 * its lines are in the new change set (`commentsOfHunk` marks the hunks that answer it).
 */
import type { ReviewComment, RevisionRecord } from '../../contract/revision.js';
import type { RunResult } from '../../contract/runResult.js';
import { rangeMapper } from '../changes/commentAnchors.js';
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
	// One diff per file, however many comments are on it.
	const mappers = new Map<string, ReturnType<typeof rangeMapper> | null>();
	const mapperOf = async (path: string) => {
		if (mappers.has(path)) return mappers.get(path)!;
		const change = result.changes.find((entry) => entry.path === path);
		// Not in the new set: the file is as the disk had it when the run began.
		const now = change ? change.content : await disk.readText(path).catch(() => null);
		const then = revision.proposed.has(path)
			? revision.proposed.get(path)!
			: await disk.readText(path).catch(() => null);
		const mapper = now === null || then === null ? null : rangeMapper(then, now);
		mappers.set(path, mapper);
		return mapper;
	};
	const comments: ReviewComment[] = [];
	for (const comment of revision.comments) {
		const mapper = await mapperOf(comment.path);
		comments.push({
			id: comment.id,
			...(comment.ref ? { ref: comment.ref } : {}),
			path: comment.path,
			line: comment.line,
			endLine: comment.endLine,
			text: comment.text,
			addressed: cited.has(comment.id),
			now: mapper ? mapper(comment) : null,
		});
	}
	return { fromRunId: revision.fromRunId, comments, userEdited: [...revision.userEdited.keys()] };
}
