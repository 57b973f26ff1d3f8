/**
 * Retention for a shell without its own view of the runs (`massgen runs --keep`): the workspace's
 * finished turns this machine made, planned by `planPrune` and deleted by `deleteRuns`. Never a turn
 * with changes still waiting for an accept or a reject, never a run going on in any process (or a
 * turn it continues: `deleteRuns` checks the running markers at the delete), never a run that came
 * with the folder.
 */
import { deleteRuns, planPrune, type PruneGuards, type RetentionPolicy } from '../runStore/pruneRuns.js';
import { readSessions } from './readSessions.js';
import type { TurnSummary } from './sessionTypes.js';

/** Deletes what `policy` lets go; returns the run ids deleted, oldest first. */
export async function pruneWorkspaceRuns(
	workspaceRoot: string,
	policy: RetentionPolicy,
	guards: Partial<PruneGuards> = {},
	env: NodeJS.ProcessEnv = process.env,
): Promise<string[]> {
	if (policy.count === undefined && policy.days === undefined) return [];
	const { sessions } = await readSessions(workspaceRoot, { env });
	const candidates = sessions.flatMap((line) =>
		line.turns.filter((turn) => turn.madeHere).map((turn) => ({ ...turn, pending: changesPending(turn) })),
	);
	const plan = planPrune(candidates, policy, {
		pinnedSessions: guards.pinnedSessions ?? new Set(),
		...(guards.keepRunIds ? { keepRunIds: guards.keepRunIds } : {}),
		now: guards.now ?? new Date(),
	});
	return deleteRuns(workspaceRoot, plan);
}

/** Changes still waiting on the user (a partly accepted set has files left). */
function changesPending(turn: TurnSummary): boolean {
	return turn.changes === 'pending' || turn.changes === 'partly-accepted';
}
