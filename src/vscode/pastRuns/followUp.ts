/**
 * A follow-up's thread, from the run directories alone (the controller keeps none): which
 * session it joins, which turn it follows, and the history that turn's chain carries.
 */
import type { FollowUp } from '../../core/sessions/followUp.js';

export type { FollowUp };

/**
 * Continue: as the CLI's `--continue RUN` (after the run's session's last turn when given a
 * session's id or its last turn; a fork from an earlier turn). Fork: after `runId` itself, always
 * as a new line. `reason` when `runId` is no readable turn of this workspace.
 */
export async function followUpFor(
	workspaceRoot: string,
	runId: string,
	fork: boolean,
): Promise<FollowUp | { readonly reason: string }> {
	// Loaded at the first follow-up: the session reader brings the change record's schema (zod),
	// which activation must not load.
	const [{ followUpOf }, { historyOf, SessionError }] = await Promise.all([
		import('../../core/sessions/followUp.js'),
		import('../../core/sessions/historyOf.js'),
	]);
	try {
		if (!fork) return await followUpOf(workspaceRoot, runId);
		return { history: await historyOf(workspaceRoot, runId), session: { parentRunId: runId } };
	} catch (error) {
		if (SessionError.is(error)) return { reason: error.message };
		throw error;
	}
}
