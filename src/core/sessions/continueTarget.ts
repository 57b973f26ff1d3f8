/**
 * What "continue" means for an id (CLI `--continue`, the editor's continue and fork): the turn
 * the follow-up carries as history and the session line it joins.
 */
import { SessionError } from './historyOf.js';
import type { SessionLine } from './sessionTypes.js';

export interface ContinueTarget {
	/** The turn the follow-up follows up on. */
	readonly parentRunId: string;
	/** The line it joins; undefined = a fork (a new line, named by the new run's id). */
	readonly sessionId: string | undefined;
}

/**
 * No id: the latest session whose last turn this machine made (a planted run is never "the latest"). A session id (a session is named by its first run, so
 * this wins over that run's id): its last turn. A run id: that turn, forking when it is not the
 * last of its line.
 */
export function continueTarget(sessions: readonly SessionLine[], id?: string): ContinueTarget {
	if (id === undefined) {
		const latest = sessions.find((line) => line.turns.at(-1)!.madeHere);
		if (!latest) {
			const planted = sessions.length > 0 ? ' made on this machine (massgen runs marks the others)' : '';
			throw new SessionError(`there is no earlier run${planted} to continue in this workspace`);
		}
		return { parentRunId: latest.turns.at(-1)!.runId, sessionId: latest.id };
	}
	const named = sessions.find((line) => line.id === id);
	if (named) return { parentRunId: named.turns.at(-1)!.runId, sessionId: named.id };
	for (const line of sessions) {
		const index = line.turns.findIndex((turn) => turn.runId === id);
		if (index < 0) continue;
		return { parentRunId: id, sessionId: index === line.turns.length - 1 ? line.id : undefined };
	}
	throw new SessionError(`no run or session '${id}' to continue (massgen runs lists them)`);
}
