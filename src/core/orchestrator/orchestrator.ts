import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import type { AgentHost } from '../agents/agentHost.js';
import { AgentExecution, type ExecutionOutcome } from '../agents/agentExecution.js';
import { FirstOutputEstimate } from '../agents/restartRule.js';
import { attachmentRecord, type Attachment } from '../context/attachment.js';
import type { ProviderError } from '../providers/spec/providerError.js';
import { createToolbox } from '../tools/createToolbox.js';
import type { Overlay, OverlaySnapshot } from '../workspace/types.js';
import { EventQueue } from '../util/eventQueue.js';
import { realClock, type RunClock } from '../util/clock.js';
import { sleep } from '../util/sleep.js';
import { anonymousOrder, stopReasons, type AgentRuntime } from './agentRuntime.js';
import { backoffDelay } from './backoff.js';
import type { AnswerRecord } from '../agents/answers.js';
import { Board } from './board.js';
import type { RunEvent, RunEventBody, RunEventOf, Usage } from '../../contract/runEvents.js';
import { runAttempts } from './attempts.js';
import { emptyResult, type CoordinationEnd, type FinishingRun } from './finishRun.js';
import {
	defaultOrchestratorSettings,
	type OrchestratorSettings,
	type RunOptions,
	type RunResult,
	type Turn,
} from './types.js';
import type { RunToolsSession } from '../tools/types.js';
import { SpendGuard } from './spendGuard.js';
import { UsageLedger } from './usageLedger.js';

/**
 * Runs one question through the team (architecture §3): parallel executions, anonymous answers,
 * votes, consensus, then the winner's presentation. Never writes to the workspace.
 */
export class Orchestrator implements AgentHost {
	readonly runId: string;
	readonly settings: OrchestratorSettings;
	readonly question: string;
	readonly history: readonly Turn[];
	readonly attachments: readonly Attachment[];
	readonly anonIds: readonly string[];
	/** One board per attempt (a post-evaluation restart starts a new one). */
	private board: Board;
	/** Config ids in anonymous order: every attempt's board uses the same ids. */
	private readonly order: readonly string[];
	/** Set for the attempts after a post-evaluation restart. */
	restartFeedback = '';
	private readonly runtimes = new Map<string, AgentRuntime>();
	private readonly ledger = new UsageLedger();
	private readonly spend: SpendGuard;
	/** Aborted on cancel; every execution's signal follows it. */
	private readonly signal: AbortSignal;
	private readonly queue = new EventQueue<RunEvent>();
	/** Every coordination timer runs on it, and every model call is handed it (`ChatRequest.clock`). */
	readonly clock: RunClock;
	private readonly startedAt: number;
	private seq = 0;
	private ended = false;
	private phase: 'coordination' | 'presentation' = 'coordination';
	private endCoordination: ((reason: CoordinationEnd) => void) | undefined;
	/** True from the start of coordination until its end is decided (set synchronously). */
	private coordinating = false;
	private started = false;
	private finalResult: RunResult | undefined;
	/** The run's extra tools (MCP, commands), opened when the run starts and closed on every exit path. */
	private tools: RunToolsSession | undefined;

	constructor(private readonly options: RunOptions) {
		this.runId = options.runId ?? randomUUID();
		this.settings = { ...defaultOrchestratorSettings, ...options.settings };
		this.question = options.question;
		this.history = options.history ?? [];
		this.attachments = options.attachments ?? [];
		this.spend = new SpendGuard(options.budget ?? null, (event) => {
			this.emit(event);
			this.endCoordination?.('budget');
			void this.stopAll(stopReasons.coordinationEnded);
		});
		// One internal signal that every execution listens to (many listeners by design).
		const controller = new AbortController();
		setMaxListeners(0, controller.signal);
		const external = options.signal;
		if (external?.aborted) controller.abort(external.reason);
		else external?.addEventListener('abort', () => controller.abort(external.reason), { once: true });
		this.signal = controller.signal;
		this.clock = options.clock ?? realClock;
		this.startedAt = this.clock.now();
		const ids = options.agents.map((agent) => agent.id);
		this.order = anonymousOrder(ids, options.anonymousOrder ?? 'shuffled', options.random ?? Math.random);
		this.board = new Board(this.order);
		this.anonIds = this.board.anonIds;
		for (const spec of options.agents) {
			const overlay = options.workspace.createOverlay();
			this.runtimes.set(spec.id, {
				spec,
				anonId: this.board.anonOf(spec.id),
				overlay,
				killed: false,
				failures: 0,
				exhaustedTurns: 0,
				rounds: 0,
				firstOutput: new FirstOutputEstimate(),
				lastError: undefined,
				running: undefined,
			});
		}
	}

	/** Starts the run; the events end with `run-end`. Can be called once. */
	run(): AsyncIterable<RunEvent> {
		if (this.started) throw new Error('Orchestrator.run() can only be called once');
		this.started = true;
		void this.execute();
		return this.queue;
	}

	/** Set once `run-end` has been emitted. */
	get result(): RunResult | undefined {
		return this.finalResult;
	}

	now(): number {
		return this.clock.now() - this.startedAt;
	}

	emit(body: RunEventBody): void {
		if (this.ended) return;
		if (body.type === 'run-end') this.ended = true;
		this.queue.push({ runId: this.runId, seq: this.seq++, t: Math.round(this.now()), ...body } as RunEvent);
	}

	private async execute(): Promise<void> {
		const agents = [...this.runtimes.values()].map((rt) => ({
			agentId: rt.spec.id,
			anonId: rt.anonId,
			provider: rt.spec.model.provider,
			model: rt.spec.model.modelId,
		}));
		const attachments = this.attachments.map(attachmentRecord);
		this.emit({
			type: 'run-start',
			question: this.question,
			workspace: this.options.workspace.root,
			agents,
			...(attachments.length ? { attachments } : {}),
			...(this.options.budget ? { budget: this.spend.record() } : {}),
		});
		if (this.attachments.some((attachment) => attachment.kind === 'image')) {
			for (const { spec } of this.runtimes.values()) {
				if (spec.model.capabilities.images === true) continue;
				const { provider, modelId } = spec.model;
				const message = `${spec.id} (${provider}/${modelId}) cannot take images: it gets the text attachments only`;
				this.emit({ type: 'notice', agentId: spec.id, message });
			}
		}
		// SDKs load while the tools start (each adapter imports its SDK lazily).
		for (const rt of this.runtimes.values()) void rt.spec.model.prepare?.();
		try {
			await this.openTools();
			this.finalResult = await this.attempts();
		} catch (error) {
			this.finalResult = {
				...emptyResult(this.finishing()),
				status: 'failed',
				error: `internal error: ${(error as Error).message}`,
			};
			this.emit({
				type: 'run-end',
				status: 'failed',
				durationMs: Math.round(this.now()),
				error: this.finalResult.error,
			});
		}
		await this.tools?.close().catch(() => undefined);
		this.queue.close();
	}

	/** Coordination, presentation and post-evaluation restarts (`attempts.ts`). */
	private attempts(): Promise<RunResult> {
		return runAttempts({
			settings: this.settings,
			signal: this.signal,
			single: this.runtimes.size === 1 || this.settings.skipCoordinationRounds,
			coordinate: () => this.coordinate(),
			beginPresentation: () => {
				this.phase = 'presentation';
			},
			finishing: () => this.finishing(),
			restart: (feedback) => this.startAttempt(feedback),
			emit: (body) => this.emit(body),
		});
	}

	/** Every agent afresh: a new board, empty overlays, no rounds or failures counted (killed agents stay out). */
	private startAttempt(feedback: string): void {
		this.restartFeedback = feedback;
		this.board = new Board(this.order);
		for (const rt of this.runtimes.values()) {
			rt.overlay = this.options.workspace.createOverlay();
			rt.rounds = 0;
			rt.failures = 0;
			rt.exhaustedTurns = 0;
			rt.lastError = undefined;
		}
		this.phase = 'coordination';
	}

	/** What `finishRun` reads (and `emit`, through the host); it keeps no state of its own. */
	private finishing(): FinishingRun {
		const { runId, settings, signal, clock, board, runtimes, ledger, spend } = this;
		const workspace = this.options.workspace;
		return { host: this, runId, settings, signal, clock, board, runtimes, ledger, spend, workspace };
	}

	private async openTools(): Promise<void> {
		this.tools = this.options.tools?.open({
			runId: this.runId,
			signal: this.signal,
			emit: (body) => this.emit(body),
			stopAgent: (agentId, reason) => {
				const rt = this.runtimes.get(agentId);
				if (rt !== undefined && this.phase === 'coordination') this.kill(rt, reason);
			},
		});
		await this.tools?.ready();
	}

	/** Resolves when every live agent holds a valid vote, or on timeout, cancel or exhaustion. */
	private async coordinate(): Promise<CoordinationEnd> {
		let cancelTimer: (() => void) | undefined;
		const onAbort = () => this.endCoordination?.('cancelled');
		const end = await new Promise<CoordinationEnd>((resolve) => {
			this.coordinating = true;
			this.endCoordination = (reason) => {
				if (!this.coordinating) return;
				this.coordinating = false;
				resolve(reason);
			};
			if (this.signal.aborted) return this.endCoordination('cancelled');
			this.signal.addEventListener('abort', onAbort, { once: true });
			cancelTimer = this.clock.setTimer(this.settings.coordinationTimeoutMs, () =>
				this.endCoordination?.('timeout'),
			);
			this.schedule();
		});
		cancelTimer?.();
		this.signal.removeEventListener('abort', onAbort);
		this.endCoordination = undefined;
		await this.stopAll(stopReasons.coordinationEnded);
		return end;
	}

	private readonly settling = new Set<Promise<void>>();

	private async stopAll(reason: symbol): Promise<void> {
		for (const rt of this.runtimes.values()) rt.running?.controller.abort(reason);
		await Promise.all([...this.settling]);
	}

	/** Starts an execution for every live agent that has no valid vote and is not running. */
	private schedule(): void {
		if (!this.coordinating) return;
		this.checkConsensus();
		if (!this.coordinating) return;
		const maxRounds = this.settings.maxRounds;
		const drafting = this.draftingAgents();
		for (const rt of this.runtimes.values()) {
			const roundsLeft = maxRounds === null || rt.rounds < maxRounds;
			const idle = !rt.killed && !rt.running && !this.board.hasVote(rt.spec.id) && roundsLeft;
			if (idle && !drafting.some((other) => other !== rt)) this.start(rt, 0);
		}
		const live = [...this.runtimes.values()].filter((rt) => !rt.killed);
		if (live.length === 0 || live.every((rt) => !rt.running)) this.endCoordination?.('exhausted');
	}

	/**
	 * Live agents whose execution cannot vote yet (its snapshot holds no answer), so it will end in an
	 * answer. Other agents wait for those answers before starting a round: a round started now would
	 * be invalidated when they land (MassGen: every agent answers first), and answers that land close
	 * together then cost one round, not one each.
	 */
	private draftingAgents(): AgentRuntime[] {
		return [...this.runtimes.values()].filter((rt) => !rt.killed && rt.running?.execution?.mustAnswer);
	}

	private checkConsensus(): void {
		const live = [...this.runtimes.values()].filter((rt) => !rt.killed);
		if (live.length > 0 && live.every((rt) => this.board.hasVote(rt.spec.id))) {
			this.endCoordination?.('consensus');
		}
	}

	private start(rt: AgentRuntime, delayMs: number): void {
		const controller = new AbortController();
		const forward = () => controller.abort(this.signal.reason);
		this.signal.addEventListener('abort', forward, { once: true });
		const running = { controller, execution: undefined as AgentExecution | undefined };
		rt.running = running;
		const task = (async (): Promise<ExecutionOutcome> => {
			if (delayMs > 0) await sleep(delayMs, controller.signal, this.clock).catch(() => undefined);
			if (controller.signal.aborted) return { kind: 'stopped' };
			rt.rounds++;
			const execution = new AgentExecution(rt.spec, rt.anonId, rt.overlay, this, controller.signal);
			running.execution = execution;
			this.emit({
				type: 'round-start',
				agentId: rt.spec.id,
				round: rt.rounds,
				snapshot: execution.startLabels,
			});
			const timeout = this.settings.agentTurnTimeoutMs;
			const cancelTimer =
				timeout === null
					? undefined
					: this.clock.setTimer(timeout, () => controller.abort(stopReasons.turnTimeout));
			try {
				return await execution.run();
			} finally {
				cancelTimer?.();
			}
		})();
		const settled = task
			.catch((error: unknown): ExecutionOutcome => ({
				kind: 'exhausted',
				message: `internal error: ${(error as Error).message}`,
			}))
			.then((outcome) => {
				this.signal.removeEventListener('abort', forward);
				rt.running = undefined;
				this.executionEnded(rt, outcome, controller.signal.reason);
			})
			.finally(() => this.settling.delete(settled));
		this.settling.add(settled);
	}

	private executionEnded(rt: AgentRuntime, outcome: ExecutionOutcome, reason: unknown): void {
		if (!this.coordinating || rt.killed) return;
		if (reason === stopReasons.turnTimeout) {
			this.kill(
				rt,
				`exceeded its turn timeout (${Math.round((this.settings.agentTurnTimeoutMs ?? 0) / 1000)} s)`,
			);
			return;
		}
		if (outcome.kind === 'exhausted') {
			const failures = ++rt.exhaustedTurns;
			rt.lastError = outcome.message;
			this.emit({
				type: 'agent-error',
				agentId: rt.spec.id,
				message: outcome.message,
				kind: 'workflow',
				retryable: true,
				failures,
			});
			if (failures >= this.settings.maxAgentFailures) {
				return this.kill(rt, `failed ${failures} turns in a row: ${outcome.message}`);
			}
			this.start(rt, this.backoff(failures));
			// Its next turn starts from the answers there are now: agents that waited for it may go.
			this.schedule();
			return;
		}
		if (outcome.kind === 'answered' || outcome.kind === 'voted') rt.exhaustedTurns = 0;
		this.schedule();
	}

	/** Stop agent (the user's): as killed, but its own event; no effect outside coordination. */
	stopAgent(agentId: string): boolean {
		const rt = this.runtimes.get(agentId);
		if (rt === undefined || rt.killed || !this.coordinating) return false;
		this.kill(rt, 'stopped by the user', { type: 'agent-stopped', agentId, reason: 'user' });
		return true;
	}

	private kill(rt: AgentRuntime, reason: string, event?: RunEventBody): void {
		if (rt.killed) return;
		rt.killed = true;
		this.board.removeVote(rt.spec.id);
		this.emit(event ?? { type: 'agent-killed', agentId: rt.spec.id, reason });
		rt.running?.controller.abort(stopReasons.killed);
		this.checkConsensus();
		this.schedule();
	}

	private backoff(failures: number, retryAfterMs?: number): number {
		return backoffDelay(
			failures,
			this.settings.retryBaseDelayMs,
			this.settings.retryMaxDelayMs,
			retryAfterMs,
			this.options.random,
		);
	}

	// AgentHost ---------------------------------------------------------------

	snapshot() {
		return this.board.snapshot();
	}

	answerCount(agentId: string): number {
		return this.board.answerCount(agentId);
	}

	submitAnswer(agentId: string, content: string, overlay: OverlaySnapshot): AnswerRecord {
		const { record, invalidated } = this.board.acceptAnswer(agentId, content, overlay, this.now());
		this.emit({ type: 'new-answer', agentId, label: record.label, content });
		if (invalidated.length > 0) {
			this.emit({ type: 'votes-invalidated', voters: invalidated, byLabel: record.label });
		}
		for (const rt of this.runtimes.values()) {
			if (rt.spec.id !== agentId) rt.running?.execution?.answersChanged();
		}
		this.schedule();
		return record;
	}

	submitVote(
		agentId: string,
		target: AnswerRecord,
		reason: string,
		snapshotVersion: number,
	): 'accepted' | 'stale' {
		const vote = this.board.castVote(agentId, target, reason, snapshotVersion);
		if (vote === 'stale') return 'stale';
		this.emit({
			type: 'vote',
			agentId,
			voter: agentId,
			votedFor: vote.label,
			votedForAgent: vote.votedForAgent,
			reason,
		});
		this.checkConsensus();
		return 'accepted';
	}

	recordUsage(agentId: string, usage: Usage): void {
		const costUsd = this.ledger.record(agentId, usage, this.runtimes.get(agentId)?.spec.price);
		this.emit({ type: 'usage', agentId, usage, costUsd });
		if (this.spend.add(usage, costUsd)) this.tools?.usage(agentId, costUsd);
	}

	async callFailed(agentId: string, error: ProviderError, signal: AbortSignal): Promise<boolean> {
		const rt = this.runtimes.get(agentId)!;
		rt.failures++;
		rt.lastError = error.message;
		this.emit({
			type: 'agent-error',
			agentId,
			message: error.message,
			kind: error.kind,
			retryable: error.retryable,
			failures: rt.failures,
		});
		const fatal = error.kind === 'auth' || error.kind === 'context-length' || error.kind === 'unavailable';
		if (fatal || rt.failures >= this.settings.maxAgentFailures) {
			if (this.phase === 'coordination') {
				this.kill(rt, fatal ? error.message : `failed ${rt.failures} times in a row: ${error.message}`);
			}
			return false;
		}
		try {
			await sleep(this.backoff(rt.failures, error.retryAfterMs), signal, this.clock);
			return true;
		} catch {
			return false;
		}
	}

	callSucceeded(agentId: string): void {
		this.runtimes.get(agentId)!.failures = 0;
	}

	callAborted(event: Omit<RunEventOf<'call-aborted'>, 'runId' | 'seq' | 't'>): void {
		const price = this.runtimes.get(event.agentId)?.spec.price;
		this.emit(event);
		this.spend.add(event.usage, this.ledger.aborted(event.agentId, event.usage, price));
	}

	firstOutputEstimate(agentId: string): FirstOutputEstimate {
		return this.runtimes.get(agentId)!.firstOutput;
	}

	mayVoteNow(): void {
		this.schedule();
	}

	createToolbox(
		agentId: string,
		overlay: Overlay,
		answers: ReadonlyMap<string, OverlaySnapshot>,
		writable: boolean,
	) {
		// During coordination the tool list stays the same all run (see `ToolboxOptions.answerIds`).
		const answerIds = this.phase === 'coordination' ? this.anonIds : undefined;
		const workspace = createToolbox({ overlay, writable, answers, answerIds });
		return this.tools === undefined
			? workspace
			: this.tools.toolbox(agentId, workspace, {
					overlay,
					phase: this.phase,
					planning: this.settings.planningMode && this.phase === 'coordination',
				});
	}
}
