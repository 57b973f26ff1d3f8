/**
 * What a follow-up run is given (CLI `--continue`, the editor's continue and fork): the history
 * of the turn it follows and the session record `runSession` takes.
 */
import type { Turn } from '../orchestrator/types.js';
import { continueTarget } from './continueTarget.js';
import { historyOf } from './historyOf.js';
import { readSessions } from './readSessions.js';

export interface FollowUp {
	readonly history: readonly Turn[];
	/** `id` undefined: a fork (the new run names its own line). */
	readonly session: { readonly id?: string; readonly parentRunId: string };
}

/** `id`: a session or run id; none = the latest session. Throws `SessionError` for an unknown id. */
export async function followUpOf(workspaceRoot: string, id?: string, budget?: number): Promise<FollowUp> {
	const { sessions } = await readSessions(workspaceRoot);
	const target = continueTarget(sessions, id);
	const history = await historyOf(workspaceRoot, target.parentRunId, budget);
	return {
		history,
		session: {
			parentRunId: target.parentRunId,
			...(target.sessionId !== undefined ? { id: target.sessionId } : {}),
		},
	};
}
