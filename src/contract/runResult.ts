/**
 * What a run returns and `result.json` holds (docs/protocol.md): the orchestrator fills it in,
 * the run store writes and reads it back, sessions and both shells show it.
 */
import type { FileChange } from './fileChange.js';
import type { PlanRunRecord } from './plan.js';
import type { RevisionRecord } from './revision.js';
import type {
	AttachmentRecord,
	BudgetRecord,
	ChecklistCriterion,
	CoordinationRecord,
	RunAgentInfo,
	RunStatus,
	SessionRecord,
	SteerRecord,
	Usage,
	VoteScores,
} from './runEvents.js';

export interface AgentUsage extends Usage {
	readonly agentId: string;
	readonly calls: number;
	/** Calls that ended early (dropped as stale, or stopped); their tokens are in the totals when reported. */
	readonly abortedCalls?: number;
	/** USD; null when any call had no known price. */
	readonly costUsd: number | null;
}

/** The change set of one answer's overlay snapshot. */
export interface AnswerChangeSet {
	readonly agentId: string;
	/** `agentN.k`. */
	readonly label: string;
	readonly changes: readonly FileChange[];
}

/** What `result.json` holds (docs/protocol.md); agent ids are config ids. */
export interface RunResult {
	readonly runId: string;
	readonly question: string;
	/** What was attached to the question (no contents); absent when nothing. */
	readonly attachments?: readonly AttachmentRecord[];
	readonly status: RunStatus;
	readonly winner: { readonly agentId: string; readonly label: string } | null;
	readonly answers: readonly { readonly agentId: string; readonly label: string; readonly content: string }[];
	readonly votes: readonly {
		readonly voter: string;
		readonly votedFor: string;
		readonly votedForLabel: string;
		readonly reason: string;
		/** With a checklist: the voter's scores (`VoteScores`). */
		readonly scores?: VoteScores;
	}[];
	/** The evaluation checklist as it stood at the end (absent when the run had none). */
	readonly checklist?: { readonly criteria: readonly ChecklistCriterion[]; readonly threshold: number };
	readonly finalAnswer: string | null;
	readonly changes: readonly FileChange[];
	/**
	 * Each agent's latest answer as a change set against the same base as `changes` (present when
	 * there is a winner), so a review can mark which of the winner's hunks other agents made too.
	 */
	readonly answerChanges?: readonly AnswerChangeSet[];
	/**
	 * Changed files whose new text holds a secret value the run knows (`filesWithSecretValues`;
	 * added by `runSession`, paths only): shown `[redacted]` everywhere, written for real on accept.
	 */
	readonly secretValueFiles?: readonly string[];
	readonly usage: readonly AgentUsage[];
	readonly durationMs: number;
	readonly error?: string;
	/**
	 * When the run started (ISO 8601, to the millisecond; added by `runSession`). The run id has
	 * only the second, and runs that start within one second must still list in order.
	 */
	readonly startedAt?: string;
	/** The conversation this run is a turn of (added by `runSession`; absent in results from before sessions). */
	readonly session?: SessionRecord;
	/** The run budget: caps, spent, and why it ended the run (absent when the run had no cap). */
	readonly budget?: BudgetRecord;
	/** Attempts that post-evaluation sent back, oldest first (absent when none was). */
	readonly restarts?: readonly RestartRecord[];
	/** How the last coordination ended (absent for a single agent, and in results from before it was kept). */
	readonly coordination?: CoordinationRecord;
	/** The user's messages to the team while it worked, in order (absent when none). */
	readonly steering?: readonly SteerRecord[];
	/** The review this run answered: the proposal it revised and the comments (absent otherwise). */
	readonly revision?: RevisionRecord;
	/** The run's part in a plan: made it, carried out a step, or all steps (absent otherwise). */
	readonly plan?: PlanRunRecord;
	/**
	 * The team as it ran: config id, anonymous id, provider and model (added by `runSession`, as
	 * `run-start` has them; absent in results from before it was kept: the stats read `run-start`).
	 */
	readonly agents?: readonly RunAgentInfo[];
}

/** One attempt that post-evaluation judged incomplete: why, and what the next attempt was told. */
export interface RestartRecord {
	readonly attempt: number;
	readonly winner: { readonly agentId: string; readonly label: string };
	readonly finalAnswer: string;
	readonly reason: string;
	readonly instructions: string;
}
