import type { Attachment } from '../context/attachment.js';
import type { AnswerRecord, AnswerSnapshot } from './answers.js';
import type { RunEventBody, RunEventOf, Usage } from '../../contract/runEvents.js';
import type { AgentSettings, Turn } from './types.js';
import type { ProviderError } from '../providers/spec/providerError.js';
import type { Toolbox } from '../tools/types.js';
import type { RunClock } from '../util/clock.js';
import type { Overlay, OverlaySnapshot } from '../workspace/types.js';
import type { FirstOutputEstimate } from './restartRule.js';

/** What an agent's turn loop needs from the orchestrator; the orchestrator owns all shared state. */
export interface AgentHost {
	readonly runId: string;
	/** Every anonymous id of the run (`agent1..agentN`). */
	readonly anonIds: readonly string[];
	readonly settings: AgentSettings;
	readonly question: string;
	readonly history: readonly Turn[];
	/** The question's context, the same for every agent (`core/context`). */
	readonly attachments: readonly Attachment[];
	/** After a post-evaluation restart: the feedback block every agent's first message carries ('' = none). */
	readonly restartFeedback: string;
	/** The run's clock: every model call is handed it (`ChatRequest.clock`). */
	readonly clock: RunClock;
	now(): number;
	emit(body: RunEventBody): void;
	snapshot(): AnswerSnapshot;
	answerCount(agentId: string): number;
	submitAnswer(agentId: string, content: string, overlay: OverlaySnapshot): AnswerRecord;
	submitVote(
		agentId: string,
		target: AnswerRecord,
		reason: string,
		snapshotVersion: number,
	): 'accepted' | 'stale';
	recordUsage(agentId: string, usage: Usage): void;
	/** Reports a failed model call; resolves true to retry (after backoff), false when the agent is out. */
	callFailed(agentId: string, error: ProviderError, signal: AbortSignal): Promise<boolean>;
	callSucceeded(agentId: string): void;
	/** Counts (and reports) a model call that ended early. */
	callAborted(event: Omit<RunEventOf<'call-aborted'>, 'runId' | 'seq' | 't'>): void;
	/** How long this agent's calls take to start streaming, kept across its executions. */
	firstOutputEstimate(agentId: string): FirstOutputEstimate;
	/**
	 * An execution that was certain to answer no longer is (its snapshot gained answers, or it is
	 * running tools): agents waiting for its first answer may start.
	 */
	mayVoteNow(agentId: string): void;
	/** `agentId`'s toolbox over `overlay` (its own, or its presentation's). */
	createToolbox(
		agentId: string,
		overlay: Overlay,
		answers: ReadonlyMap<string, OverlaySnapshot>,
		writable: boolean,
	): Toolbox;
}
