import type { AgentSettings, AgentSpec, Turn } from '../agents/types.js';
import type { RunTools } from '../tools/types.js';
import type { Workspace } from '../workspace/types.js';
import type { Attachment } from '../context/attachment.js';
import type { ProjectInstructions } from '../context/projectInstructions.js';
import type { Revision } from '../context/revision.js';
import type { RunClock } from '../util/clock.js';
import type { BudgetRecord } from '../../contract/runEvents.js';
import type { QuorumSetting } from './quorum.js';

/** What a run is given and returns speaks of the agents' own types. */
export type { AgentSpec, ModelPrice, Sensitivity, Turn, TurnChanges } from '../agents/types.js';
export type { ChecklistSettings } from '../agents/checklist.js';
export { checklistLimits, defaultVotingThreshold } from '../agents/checklist.js';

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
	/**
	 * Coordination ends as soon as this many live agents' votes back one answer (`majority`: more
	 * than half of the live agents), without waiting for the rest; null = every live agent votes.
	 */
	readonly quorum: QuorumSetting;
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
	quorum: null,
	checklist: null,
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
	/** The project's instruction files, first in every agent's first message (`instructionsSection`). */
	readonly instructions?: ProjectInstructions;
	/** A revision's proposal and comments: every overlay starts with the proposal, every first message carries the comments. */
	readonly revision?: Revision;
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
