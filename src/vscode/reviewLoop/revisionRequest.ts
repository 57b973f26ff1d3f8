import type { ProposalFile, RevisionRequest } from '../../contract/revision.js';
import { maxThreadsPerRun, type TeamThread, threadText } from './teamThread.js';

export interface RevisionPlan {
	readonly revision: RevisionRequest;
	/** Open threads not sent: on a file the proposal no longer has (decided, or nothing ticked). */
	readonly left: readonly TeamThread[];
}

/**
 * "Revise run `fromRunId`'s proposal with these comments" (`RunRequest.revision`): the proposal's
 * files as Accept would write them now and every open thread on one of them, anchored to the
 * lines of the proposed text the reviewer saw, at most `maxThreadsPerRun` (the core refuses more).
 */
export function revisionPlan(
	fromRunId: string,
	files: readonly ProposalFile[],
	open: readonly TeamThread[],
): RevisionPlan {
	const paths = new Set(files.map((file) => file.path));
	const sent = open.filter((thread) => paths.has(thread.path)).slice(0, maxThreadsPerRun);
	return {
		revision: {
			fromRunId,
			files,
			comments: sent.map((thread) => ({
				id: thread.id,
				path: thread.path,
				line: thread.range.line,
				endLine: thread.range.endLine,
				text: threadText(thread),
			})),
		},
		left: open.filter((thread) => !sent.includes(thread)),
	};
}
