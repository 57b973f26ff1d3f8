/**
 * Sessions (docs/sessions.md): a session is a chain of runs, each a turn, rebuilt from the run
 * directories alone (`readSessions`). A fork is a new line whose first turn follows up on a
 * turn of another line.
 */
import type { PlanRunRecord } from '../../contract/plan.js';
import type { RunStatus } from '../../contract/runEvents.js';
import type { ChangeOutcome } from '../changes/acceptRecord.js';

export interface TurnSummary {
	readonly runId: string;
	readonly sessionId: string;
	/** The turn this one follows up on; null for a session's first turn. */
	readonly parentRunId: string | null;
	readonly question: string;
	readonly status: RunStatus;
	readonly winner: { readonly agentId: string; readonly label: string } | null;
	/** USD; null when some call had no known price. */
	readonly costUsd: number | null;
	/** ISO 8601 (recorded, else from the run id or the result's modification time; never in the future). */
	readonly startedAt: string;
	readonly finalAnswer: string | null;
	/** What the user told the team while it worked, in order (absent: nothing). */
	readonly steering?: readonly string[];
	/** The review comments the turn answered (`path:line: text`; absent: it revised nothing). */
	readonly reviewComments?: readonly string[];
	/** The turn's part in a plan (`contract/plan.ts`; absent: none). */
	readonly plan?: PlanRunRecord;
	/** From the run's change record (`changes-log.jsonl`) and its change set. */
	readonly changes: ChangeOutcome;
	/** How many files the run's change set has (absent: not read). */
	readonly files?: number;
	/** This machine made the run (`ownRuns.ts`); false = it came with the folder (a clone, a copy). */
	readonly madeHere: boolean;
}

export interface SessionLine {
	readonly id: string;
	/** The parent run of its first turn: set for a fork, null for a new conversation. */
	readonly forkedFrom: string | null;
	/** Oldest first. */
	readonly turns: readonly TurnSummary[];
}

export interface SessionsRead {
	/** Newest activity first. */
	readonly sessions: readonly SessionLine[];
	/** Run directories that are not turns (no or corrupted result.json, over the listing's limits), with why. */
	readonly skipped: readonly { readonly runId: string; readonly reason: string }[];
}
