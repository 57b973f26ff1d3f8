import type { ProposalFile, RevisionRequest } from '../../contract/revision.js';
import { mapperCache } from './anchorMap.js';
import { maxThreadsPerRun, type TeamThread, threadText } from './teamThread.js';

export interface RevisionPlan {
	readonly revision: RevisionRequest;
	/** Open threads not sent: on a file the proposal no longer has (decided, or nothing ticked). */
	readonly left: readonly TeamThread[];
}

/**
 * "Revise run `fromRunId`'s proposal with these comments" (`RunRequest.revision`): the proposal's
 * files as Accept would write them now and every open thread on one of them, at most
 * `maxThreadsPerRun` (the core refuses more). A thread is anchored to the proposed text the
 * reviewer saw; when the text sent differs (the user's own edit of the file on disk merged in),
 * its lines are mapped onto the text sent, which is what the core quotes and the agents read.
 */
export function revisionPlan(
	fromRunId: string,
	files: readonly ProposalFile[],
	open: readonly TeamThread[],
): RevisionPlan {
	const byPath = new Map(files.map((file) => [file.path, file.content]));
	const sent = open.filter((thread) => byPath.has(thread.path)).slice(0, maxThreadsPerRun);
	const mapper = mapperCache();
	const anchor = (thread: TeamThread) => {
		const content = byPath.get(thread.path);
		if (content === null || content === undefined || content === thread.anchoredText) return thread.range;
		return mapper(thread.anchoredText, content)(thread.range) ?? thread.range;
	};
	return {
		revision: {
			fromRunId,
			files,
			comments: sent.map((thread) => ({
				id: thread.id,
				path: thread.path,
				...anchor(thread),
				text: threadText(thread),
			})),
		},
		left: open.filter((thread) => !sent.includes(thread)),
	};
}
