import type { Attachment } from '../context/attachment.js';
import type { ProjectInstructions } from '../context/projectInstructions.js';
import type { Revision } from '../context/revision.js';
import type { RunEventBody, RunEventOf, Usage } from '../../contract/runEvents.js';
import type { ProviderError } from '../providers/spec/providerError.js';
import type { ToolCall } from '../providers/spec/model.js';
import type { RunClock } from '../util/clock.js';
import type { SteerFeed } from './steering.js';
import type { AgentSettings, Turn } from './types.js';

/** What every turn of an agent reads of its run: data, the clock, and a sink for its live output. */
export interface TurnContext {
	readonly runId: string;
	readonly question: string;
	readonly history: readonly Turn[];
	/** The question's context, the same for every agent (`core/context`). */
	readonly attachments: readonly Attachment[];
	/** The project's instruction files (`core/context/projectInstructions.ts`), the same for every agent. */
	readonly instructions?: ProjectInstructions;
	/** A revision's proposal and review comments (`core/context/revision.ts`), the same for every agent. */
	readonly revision?: Revision;
	/** After a post-evaluation restart: the feedback block every agent's first message carries ('' = none). */
	readonly restartFeedback: string;
	readonly settings: AgentSettings;
	/** The user's messages to the running team: each reaches its agents at their next model call. */
	readonly steering: SteerFeed;
	/** Handed to every model call (`ChatRequest.clock`) and timing its first output. */
	readonly clock: RunClock;
	/**
	 * Output as it happens (deltas, tool calls and results, workflow errors, updates). Coordination
	 * state (answers, votes, failures, usage) never goes this way: it comes back in a `TurnStep`.
	 */
	emit(body: RunEventBody): void;
}

/** What one model call leaves to account for. */
export interface CallReport {
	/** The usage of a completed call. */
	readonly usage?: Usage;
	/** A call that ended early (dropped as stale, stopped): its event. */
	readonly aborted?: Omit<RunEventOf<'call-aborted'>, 'runId' | 'seq' | 't'>;
	/** How long the call took to start streaming, when it did. */
	readonly firstOutputMs?: number;
	/** The call completed: the agent's run of failed calls is over. */
	readonly completed: boolean;
}

/**
 * One step of an agent's turn, returned to the orchestrator, which alone applies it (openai-agents-js
 * has its run loop apply a step's `NextStep` the same way). `Done` is what the turn ends in.
 */
export type TurnStep<Done> =
	/** A model call ended; `failure` when it failed (the orchestrator retries it after backoff, or ends the turn). */
	| { readonly kind: 'called'; readonly report: CallReport; readonly failure?: ProviderError }
	/** The last response asks for tools: `runTools` runs them before the next step. */
	| { readonly kind: 'tools'; readonly calls: readonly ToolCall[] }
	| { readonly kind: 'done'; readonly value: Done }
	/** Aborted (the turn, the phase or the run ended). */
	| { readonly kind: 'stopped'; readonly report?: CallReport };

export interface AgentTurn<Done> {
	/**
	 * The next step. After a failed call, the same request again. Everything before the model call
	 * (reading the board's answers) happens before its first await.
	 */
	next(): Promise<TurnStep<Done>>;
	/** Runs the tools a `tools` step asked for; their results go into the conversation. */
	runTools(calls: readonly ToolCall[]): Promise<void>;
}
