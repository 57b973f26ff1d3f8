import type { AgentSettings, AgentSpec, Turn } from '../agents/types.js';
import type { RunTools } from '../tools/types.js';
import type { FileChange, Workspace } from '../workspace/types.js';
import type { Attachment } from '../context/attachment.js';
import type { RunClock } from '../util/clock.js';
import type {
	AttachmentRecord,
	BudgetRecord,
	RunStatus,
	SessionRecord,
	Usage,
} from '../../contract/runEvents.js';

/** What a run is given and returns speaks of the agents' own types. */
export type { AgentSpec, ModelPrice, Sensitivity, Turn, TurnChanges } from '../agents/types.js';

/** Orchestrator knobs, already defaulted (the config layer maps YAML onto this). */
export interface OrchestratorSettings extends AgentSettings {
	/** null = no cap; when reached, coordination ends with the usual winner rule. */
	readonly maxRounds: number | null;
	readonly agentTurnTimeoutMs: number | null;
	readonly coordinationTimeoutMs: number;
	readonly presentationTimeoutMs: number;
	/** Consecutive provider failures after which an agent is killed. */
	readonly maxAgentFailures: number;
	/** Base delay of the exponential backoff between an agent's retries. */
	readonly retryBaseDelayMs: number;
	readonly retryMaxDelayMs: number;
	/** Skip coordination: the first agent presents at once (MassGen's debug switch). */
	readonly skipCoordinationRounds: boolean;
	/**
	 * Post-evaluation (MassGen's `max_orchestration_restarts`): after the winner presents, it checks
	 * its own final answer and may restart coordination with its reasons, this many times at most.
	 */
	readonly maxOrchestrationRestarts: number;
}

export const defaultOrchestratorSettings: OrchestratorSettings = {
	votingSensitivity: 'lenient',
	answerNoveltyRequirement: 'lenient',
	maxNewAnswersPerAgent: null,
	maxToolCallsPerTurn: 40,
	maxAttemptsPerTurn: 3,
	maxRounds: null,
	agentTurnTimeoutMs: null,
	coordinationTimeoutMs: 1_800_000,
	presentationTimeoutMs: 600_000,
	maxAgentFailures: 3,
	retryBaseDelayMs: 1_000,
	retryMaxDelayMs: 30_000,
	skipCoordinationRounds: false,
	staleCallRestartFraction: 0.5,
	maxOrchestrationRestarts: 0,
	planningMode: false,
	planningModeInstruction:
		'PLANNING MODE: during coordination, do not carry out actions that change anything outside your private copy of the workspace (MCP tools that write, commands with network access): they are not run. Describe each such action in your answer as a plan (tool, arguments, why); the agent that presents the final answer carries out the plan, with the user’s approval.',
};

export interface RunOptions {
	readonly runId?: string;
	readonly question: string;
	readonly workspace: Workspace;
	readonly agents: readonly AgentSpec[];
	readonly settings?: Partial<OrchestratorSettings>;
	/** Earlier turns of this conversation (multi-turn). */
	readonly history?: readonly Turn[];
	/** The question's context (`resolveAttachments`), shown to every agent in its first message. */
	readonly attachments?: readonly Attachment[];
	readonly signal?: AbortSignal;
	/** The run's time (every coordination timer, and the models' own waits); omitted = real time. */
	readonly clock?: RunClock;
	/**
	 * How config agents map to `agent1..agentN`: shuffled per run by default (a fixed alphabetical
	 * mapping lets position bias leak into votes: docs/decisions/0001-anonymous-ids-shuffled-per-run.md);
	 * `config` keeps config order.
	 */
	readonly anonymousOrder?: 'shuffled' | 'config';
	readonly random?: () => number;
	/**
	 * Tools beyond the workspace (MCP servers, `run_command`) behind the permission engine and
	 * approvals: `createRunTools` in `core/tools/guardedRunTools.ts`. Omitted = workspace tools only.
	 */
	readonly tools?: RunTools;
	/** The run budget's cost and token caps (`permissions/runBudget.ts` `budgetCaps`); omitted = none. */
	readonly budget?: Pick<BudgetRecord, 'maxCostUsd' | 'maxTokens'>;
}

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
	}[];
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
}

/** One attempt that post-evaluation judged incomplete: why, and what the next attempt was told. */
export interface RestartRecord {
	readonly attempt: number;
	readonly winner: { readonly agentId: string; readonly label: string };
	readonly finalAnswer: string;
	readonly reason: string;
	readonly instructions: string;
}
