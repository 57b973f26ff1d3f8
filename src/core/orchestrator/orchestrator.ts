import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { restartFeedbackBlock } from '../agents/evaluationPrompts.js';
import { FirstOutputEstimate } from '../agents/restartRule.js';
import type { TurnContext } from '../agents/turn.js';
import type { RunEvent } from '../../contract/runEvents.js';
import { attachmentRecord } from '../context/attachment.js';
import { createToolbox } from '../tools/createToolbox.js';
import type { RunToolsSession, Toolbox } from '../tools/types.js';
import { realClock, type RunClock } from '../util/clock.js';
import type { Overlay, OverlaySnapshot } from '../workspace/types.js';
import { anonymousOrder, type AgentRuntime } from './agentRuntime.js';
import { ChecklistBoard } from './checklistBoard.js';
import { Coordination } from './coordination.js';
import { prepareChecklist } from './prepareChecklist.js';
import { evaluateAttempt } from './evaluateAttempt.js';
import { cancelRun, emptyResult, endPresented, presentRun, type FinishingRun } from './finishRun.js';
import { RunEventStream } from './runEventStream.js';
import { SpendGuard } from './spendGuard.js';
import { estimateSaving } from './saving.js';
import { SteerInbox, type SteerMessage, type SteerOutcome } from './steerInbox.js';
import { TurnDriver } from './turnDriver.js';
import { defaultOrchestratorSettings, type OrchestratorSettings, type RunOptions } from './types.js';
import type { RestartRecord, RunResult } from '../../contract/runResult.js';
import { UsageLedger } from './usageLedger.js';

/**
 * Runs one question through the team: parallel executions, anonymous answers,
 * votes, consensus, then the winner's presentation, and post-evaluation restarts. Never writes to
 * the workspace. Agents' turns return what they decided; this class and its parts alone apply it.
 */
export class Orchestrator {
	readonly runId: string;
	readonly settings: OrchestratorSettings;
	/** Every coordination timer runs on it, and every model call is handed it (`ChatRequest.clock`). */
	private readonly clock: RunClock;
	private readonly runtimes = new Map<string, AgentRuntime>();
	private readonly events: RunEventStream;
	private readonly ledger = new UsageLedger();
	private readonly spend: SpendGuard;
	private readonly driver: TurnDriver;
	private readonly coordination: Coordination;
	private readonly steering = new SteerInbox();
	/** The evaluation checklist (`voting_sensitivity: checklist_gated`); undefined when off. */
	private readonly checklist: ChecklistBoard | undefined;
	/** The agent presenting (or checking its presentation) now; undefined outside presentation. */
	private presenter: string | undefined;
	/** Aborted on cancel; every execution's signal follows it. */
	private readonly signal: AbortSignal;
	private phase: 'coordination' | 'presentation' = 'coordination';
	/** Set for the attempts after a post-evaluation restart. */
	private restartFeedback = '';
	private started = false;
	private finalResult: RunResult | undefined;
	/** The run's extra tools (MCP, commands), opened when the run starts and closed on every exit path. */
	private tools: RunToolsSession | undefined;

	constructor(private readonly options: RunOptions) {
		this.runId = options.runId ?? randomUUID();
		this.settings = { ...defaultOrchestratorSettings, ...options.settings };
		this.clock = options.clock ?? realClock;
		this.events = new RunEventStream(this.runId, this.clock);
		const checklist = this.settings.checklist;
		this.checklist = checklist ? new ChecklistBoard(checklist, (body) => this.events.emit(body)) : undefined;
		this.spend = new SpendGuard(options.budget ?? null, (event) => {
			this.events.emit(event);
			this.coordination.end('budget');
			void this.coordination.stopAll();
		});
		// One internal signal that every execution listens to (many listeners by design).
		const controller = new AbortController();
		setMaxListeners(0, controller.signal);
		const external = options.signal;
		if (external?.aborted) controller.abort(external.reason);
		else external?.addEventListener('abort', () => controller.abort(external.reason), { once: true });
		this.signal = controller.signal;
		const { settings, clock, events, ledger, spend, signal, runtimes } = this;
		this.driver = new TurnDriver({
			settings,
			clock,
			events,
			ledger,
			spend,
			random: options.random,
			toolsUsage: (agentId, costUsd) => this.tools?.usage(agentId, costUsd),
		});
		const ids = options.agents.map((agent) => agent.id);
		this.coordination = new Coordination({
			settings,
			signal,
			clock,
			events,
			driver: this.driver,
			runtimes,
			order: anonymousOrder(ids, options.anonymousOrder ?? 'shuffled', options.random ?? Math.random),
			turnContext: () => this.turnContext(),
			toolbox: (rt, answers) => this.toolbox(rt.spec.id, rt.overlay, answers, true),
			steering: this.steering,
			saving: (notWaitedFor) => estimateSaving(notWaitedFor, this.ledger, [...runtimes.keys()]),
			...(this.checklist ? { checklist: this.checklist } : {}),
		});
		for (const spec of options.agents) {
			this.runtimes.set(spec.id, {
				spec,
				anonId: this.coordination.board.anonOf(spec.id),
				overlay: options.workspace.createOverlay(),
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
		return this.events.queue;
	}

	/** Set once `run-end` has been emitted. */
	get result(): RunResult | undefined {
		return this.finalResult;
	}

	/** Stop agent (the user's): as killed, but its own event; no effect outside coordination. */
	stopAgent(agentId: string): boolean {
		const rt = this.runtimes.get(agentId);
		if (rt === undefined || rt.killed || !this.coordination.active) return false;
		this.coordination.kill(rt, 'stopped by the user', { type: 'agent-stopped', agentId, reason: 'user' });
		return true;
	}

	/**
	 * The user's message to the running team (`steer` event): each targeted agent gets it at its next
	 * model call. During coordination it is for every live agent or one; unless it is a note, their
	 * votes are taken away. During the presentation it is for the presenter.
	 */
	steer(message: SteerMessage): SteerOutcome {
		const problem = this.steering.problem(message.text);
		if (problem) return { ok: false, reason: problem };
		const agents = this.steerTargets(message.agentId);
		if (typeof agents === 'string') return { ok: false, reason: agents };
		const record = this.steering.add(message, agents, this.events.now());
		this.events.emit({
			type: 'steer',
			id: record.id,
			text: record.text,
			agents,
			...(record.targetAgentId === undefined ? {} : { targetAgentId: record.targetAgentId }),
			noteOnly: record.noteOnly,
		});
		if (!record.noteOnly && this.coordination.active) this.coordination.steered(agents);
		return { ok: true, id: record.id, agents };
	}

	/**
	 * Finish now (the user's): no new round starts; the agent with the most votes (none: the most
	 * recent answer) presents as soon as there is an answer.
	 */
	finishNow(): { readonly ok: true } | { readonly ok: false; readonly reason: string } {
		if (this.coordination.finishNow()) return { ok: true };
		if (this.finalResult !== undefined || !this.started) {
			return { ok: false, reason: 'The run is not going.' };
		}
		const who = this.presenter === undefined ? 'the team' : this.presenter;
		return { ok: false, reason: `The team has finished coordinating: ${who} is presenting the answer.` };
	}

	/** Who a message is for now, or why it cannot be sent. */
	private steerTargets(agentId: string | undefined): string[] | string {
		if (this.finalResult !== undefined || !this.started || this.signal.aborted) {
			return 'The run is not going.';
		}
		const named = agentId === undefined ? undefined : this.runtimes.get(agentId);
		if (agentId !== undefined && named === undefined) {
			return `This team has no agent "${agentId}" (it has ${[...this.runtimes.keys()].join(', ')}).`;
		}
		if (this.coordination.active) {
			if (named?.killed) return `${agentId} is out of the run.`;
			if (named) return [named.spec.id];
			return [...this.runtimes.values()].filter((rt) => !rt.killed).map((rt) => rt.spec.id);
		}
		if (this.phase === 'presentation' && this.presenter !== undefined) {
			if (named && named.spec.id !== this.presenter) {
				return `${agentId} is not presenting: ${this.presenter} is.`;
			}
			return [this.presenter];
		}
		return 'The team is between steps: send it again in a moment.';
	}

	private async execute(): Promise<void> {
		const { events, options } = this;
		const agents = [...this.runtimes.values()].map((rt) => ({
			agentId: rt.spec.id,
			anonId: rt.anonId,
			provider: rt.spec.model.provider,
			model: rt.spec.model.modelId,
		}));
		const attachments = (options.attachments ?? []).map(attachmentRecord);
		events.emit({
			type: 'run-start',
			question: options.question,
			workspace: options.workspace.root,
			agents,
			...(attachments.length ? { attachments } : {}),
			...(options.budget ? { budget: this.spend.record() } : {}),
		});
		if (options.attachments?.some((attachment) => attachment.kind === 'image')) {
			for (const { spec } of this.runtimes.values()) {
				if (spec.model.capabilities.images === true) continue;
				const { provider, modelId } = spec.model;
				const message = `${spec.id} (${provider}/${modelId}) cannot take images: it gets the text attachments only`;
				events.emit({ type: 'notice', agentId: spec.id, message });
			}
		}
		// SDKs load while the tools start (each adapter imports its SDK lazily).
		for (const rt of this.runtimes.values()) void rt.spec.model.prepare?.();
		try {
			await this.openTools();
			// A single agent (or skipped coordination) never votes: no checklist, no generator call.
			if (this.checklist && !this.presentsAlone) await prepareChecklist(this.checklist, this.finishing());
			const result = await this.attempts();
			const coordination = this.coordination.record;
			const steering = this.steering.records;
			this.finalResult = {
				...result,
				...(coordination ? { coordination } : {}),
				...(steering.length ? { steering } : {}),
			};
		} catch (error) {
			this.finalResult = {
				...emptyResult(this.finishing()),
				status: 'failed',
				error: `internal error: ${(error as Error).message}`,
			};
			events.emit({
				type: 'run-end',
				status: 'failed',
				durationMs: Math.round(events.now()),
				error: this.finalResult.error,
			});
		}
		await this.tools?.close().catch(() => undefined);
		events.queue.close();
	}

	/**
	 * MassGen's post-evaluation loop (`max_orchestration_restarts`): coordination and presentation, then, while restarts
	 * are left, an evaluation that may send the run back to coordination, every agent afresh with the
	 * evaluator's reasons. Nothing of an attempt it discards was ever written.
	 */
	private async attempts(): Promise<RunResult> {
		const restarts: RestartRecord[] = [];
		const single = this.presentsAlone;
		for (let attempt = 1; ; attempt++) {
			const end = single ? undefined : await this.coordination.coordinate();
			const ending = this.coordination.record;
			if (end !== undefined && ending !== undefined) {
				this.events.emit({ type: 'coordination-end', ...ending });
			}
			this.phase = 'presentation';
			const presentation = await presentRun(this.finishing(), end);
			if (presentation.kind === 'ended') return presentation.result;
			const presented = presentation.attempt;
			// Over budget no call starts: the presented answer is final, unchecked.
			if (attempt > this.settings.maxOrchestrationRestarts || this.spend.reached) {
				return endPresented(this.finishing(), presented, restarts);
			}
			const verdict = await evaluateAttempt(this.finishing(), presented, attempt);
			if (verdict.kind === 'stopped' || this.signal.aborted) return cancelRun(this.finishing());
			// A restart verdict whose own call reached the budget cannot start coordination again.
			if (verdict.kind !== 'restart' || this.spend.reached) {
				return endPresented(this.finishing(), presented, restarts);
			}
			const { reason, instructions } = verdict;
			restarts.push({
				attempt,
				winner: presented.winner,
				finalAnswer: presented.content,
				reason,
				instructions,
			});
			this.startAttempt(
				restartFeedbackBlock({
					attempt: attempt + 1,
					reason,
					instructions,
					previousAnswer: presented.content,
				}),
			);
			this.events.emit({ type: 'attempt-start', attempt: attempt + 1, reason, instructions });
		}
	}

	/** One agent, or coordination skipped: the first agent presents at once. */
	private get presentsAlone(): boolean {
		return this.runtimes.size === 1 || this.settings.skipCoordinationRounds;
	}

	/** Every agent afresh: a new board, empty overlays, no rounds or failures counted (killed agents stay out). */
	private startAttempt(feedback: string): void {
		this.restartFeedback = feedback;
		this.coordination.reset();
		this.checklist?.newAttempt();
		for (const rt of this.runtimes.values()) {
			rt.overlay = this.options.workspace.createOverlay();
			rt.rounds = 0;
			rt.failures = 0;
			rt.exhaustedTurns = 0;
			rt.lastError = undefined;
		}
		this.phase = 'coordination';
	}

	/** What `finishRun` reads; it keeps no state of its own. */
	private finishing(): FinishingRun {
		const { runId, settings, signal, clock, events, driver, runtimes, ledger, spend } = this;
		return {
			runId,
			settings,
			signal,
			clock,
			events,
			driver,
			turnContext: this.turnContext(),
			toolbox: (agentId, overlay, writable) => this.toolbox(agentId, overlay, new Map(), writable),
			board: this.coordination.board,
			runtimes,
			ledger,
			spend,
			workspace: this.options.workspace,
			presenting: (agentId) => (this.presenter = agentId),
			...(this.checklist ? { checklist: this.checklist } : {}),
		};
	}

	/** What every agent turn of the current attempt reads. */
	private turnContext(): TurnContext {
		const { options, events } = this;
		return {
			runId: this.runId,
			question: options.question,
			history: options.history ?? [],
			attachments: options.attachments ?? [],
			...(options.instructions ? { instructions: options.instructions } : {}),
			...(options.revision ? { revision: options.revision } : {}),
			restartFeedback: this.restartFeedback,
			settings: this.settings,
			steering: this.steering,
			clock: this.clock,
			emit: (body) => events.emit(body),
		};
	}

	private async openTools(): Promise<void> {
		this.tools = this.options.tools?.open({
			runId: this.runId,
			signal: this.signal,
			emit: (body) => this.events.emit(body),
			stopAgent: (agentId, reason) => {
				const rt = this.runtimes.get(agentId);
				if (rt !== undefined && this.phase === 'coordination') this.coordination.kill(rt, reason);
			},
		});
		await this.tools?.ready();
	}

	/** `agentId`'s toolbox over `overlay` (its own, or its presentation's). */
	private toolbox(
		agentId: string,
		overlay: Overlay,
		answers: ReadonlyMap<string, OverlaySnapshot>,
		writable: boolean,
	): Toolbox {
		// During coordination the tool list stays the same all run (see `ToolboxOptions.answerIds`).
		const answerIds = this.phase === 'coordination' ? this.coordination.board.anonIds : undefined;
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
