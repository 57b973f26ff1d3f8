/**
 * The history a follow-up on a run carries: the chain of turns ending at that run, following
 * `parentRunId` back across forks, read from the run directories and cut to the budget.
 */
import type { RunStatus } from '../../contract/runEvents.js';
import type { Turn, TurnChanges } from '../orchestrator/types.js';
import type { ChangeOutcome } from '../changes/acceptRecord.js';
import { foreignRunMessage, readOwnRuns } from '../runStore/ownRuns.js';
import { fitHistory } from './fitHistory.js';
import { readTurn } from './readSessions.js';
import type { TurnSummary } from './sessionTypes.js';
import { hasErrorMark } from '../util/errorMark.js';

const mark = Symbol.for('massgen.SessionError');

/** A run asked for by the user that is not a readable turn. */
export class SessionError extends Error {
	readonly [mark] = true;

	/** Survives duplicate module copies (the engine bundle), unlike `instanceof`. */
	static is(value: unknown): value is SessionError {
		return hasErrorMark(value, mark);
	}
}

/**
 * Oldest first; throws `SessionError` when `runId` itself is not a readable turn or was not made on
 * this machine. The turns given to the agents as the user's own are only ours: the chain ends
 * below the newest turn that came with the folder.
 */
export async function historyOf(workspaceRoot: string, runId: string, budget?: number): Promise<Turn[]> {
	const chain = await turnChain(workspaceRoot, runId);
	if (!chain.at(-1)!.madeHere) {
		throw new SessionError(await foreignRunMessage(workspaceRoot, runId, 'continued'));
	}
	const ours = chain.slice(chain.findLastIndex((turn) => !turn.madeHere) + 1);
	return fitHistory(ours.map(asTurn), budget);
}

/** The turns from the line's root to `runId`. A missing or unreadable ancestor ends the chain there. */
export async function turnChain(workspaceRoot: string, runId: string): Promise<TurnSummary[]> {
	const own = await readOwnRuns(workspaceRoot);
	const last = await readTurn(workspaceRoot, runId, own);
	if ('reason' in last) throw new SessionError(`run ${runId}: ${last.reason}`);
	const chain = [last];
	const seen = new Set([runId]);
	for (let parent = last.parentRunId; parent !== null && !seen.has(parent);) {
		seen.add(parent);
		const turn = await readTurn(workspaceRoot, parent, own);
		if ('reason' in turn) break;
		chain.push(turn);
		parent = turn.parentRunId;
	}
	return chain.reverse();
}

const endings: Record<RunStatus, string> = {
	completed: 'ended without one',
	failed: 'failed',
	timeout: 'timed out',
	cancelled: 'was cancelled',
};

function asTurn(turn: TurnSummary): Turn {
	const answer = turn.finalAnswer ?? `(no final answer: the run ${endings[turn.status]})`;
	const changes = turnChanges(turn.changes);
	return {
		// A plan run's question is mostly the plan format: later turns need only what was planned.
		question:
			turn.plan?.kind === 'planning'
				? `Make a plan for this task (read only, no changes): ${turn.plan.task}`
				: turn.question,
		...(turn.steering ? { steering: turn.steering } : {}),
		...(turn.reviewComments ? { reviewComments: turn.reviewComments } : {}),
		answer,
		...(changes ? { changes } : {}),
	};
}

function turnChanges(outcome: ChangeOutcome): TurnChanges | undefined {
	return outcome === 'none' ? undefined : outcome;
}
