/**
 * `massgen run --continue RUN_ID --comments FILE`: the revision the CLI sends (RUN_ID's proposal
 * as it would be written now, and the file's comments), and the record that the new run replaced
 * RUN_ID's change set once it proposes its own.
 */
import type { RevisionRequest } from '../contract/revision.js';
import { runDirOf } from '../contract/runLayout.js';
import type { RunSessionOutcome } from '../core/run/runSession.js';
import { appendChangeLog } from '../core/runStore/changeLog.js';
import { SessionError } from '../core/sessions/historyOf.js';
import { pendingProposal } from '../core/sessions/pendingProposal.js';
import { errorMessage } from '../core/util/errorMessage.js';
import { CommentsFileError, readCommentsFile } from './commentsFile.js';

export type CliRevision =
	| { readonly ok: true; readonly revision: RevisionRequest; readonly notes: readonly string[] }
	| { readonly ok: false; readonly reason: string };

export async function cliRevision(root: string, runId: string, commentsFile: string): Promise<CliRevision> {
	try {
		const comments = await readCommentsFile(commentsFile);
		const proposal = await pendingProposal(root, runId);
		const notes = proposal.skipped.map(
			({ path, reason }) => `${path} is not in the proposal sent back: ${reason}`,
		);
		return { ok: true, revision: { fromRunId: runId, files: proposal.files, comments }, notes };
	} catch (error) {
		if (error instanceof CommentsFileError || SessionError.is(error)) {
			return { ok: false, reason: error.message };
		}
		throw error;
	}
}

/** Run `parent`'s changes can no longer be accepted as they were: the new run's set replaces them. */
export async function recordRevised(
	root: string,
	parent: string,
	outcome: RunSessionOutcome,
): Promise<string | null> {
	const { result } = outcome;
	if (result.changes.length === 0 || result.status === 'cancelled') return null;
	try {
		await appendChangeLog(runDirOf(root, parent), { kind: 'supersede', by: 'cli', byRun: result.runId });
		return null;
	} catch (error) {
		return `cannot record run ${parent}'s changes as replaced: ${errorMessage(error)}`;
	}
}
