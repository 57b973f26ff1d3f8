import { AgentExecution, type ExecutionContext, type ExecutionDecision } from '../agents/agentExecution.js';
import type { TurnContext } from '../agents/turn.js';
import type { CoordinationEndReason, CoordinationRecord, RunEventBody } from '../../contract/runEvents.js';
import type { SteerFeed } from '../agents/steering.js';
import type { Toolbox } from '../tools/types.js';
import type { RunClock } from '../util/clock.js';
import { sleep } from '../util/sleep.js';
import type { OverlaySnapshot } from '../workspace/types.js';
import { stopReasons, type AgentRuntime } from './agentRuntime.js';
import { Board } from './board.js';
import type { ChecklistBoard } from './checklistBoard.js';
import { quorumReached } from './quorum.js';
import type { RunEventStream } from './runEventStream.js';
import type { Driven, TurnDriver } from './turnDriver.js';
import type { OrchestratorSettings } from './types.js';

type Outcome = Driven<ExecutionDecision>;

/** `budget`: a cap of the run budget was reached (no presentation call: the stored answer stands). */
export type CoordinationEnd = CoordinationEndReason;

/**
 * The coordination phase: owns the board and the agents' executions. It starts
 * an execution for every live agent without a valid vote, applies what each ends in (an answer
 * invalidates every vote; a vote counts only against the answers its voter saw), and ends on
 * consensus, timeout, cancel, budget or exhaustion.
 */
export class Coordination {
	/** One board per attempt (a post-evaluation restart starts a new one). */
	private current: Board;
	/** True from the start of coordination until its end is decided (set synchronously). */
	private coordinating = false;
	private endCoordination: ((reason: CoordinationEnd) => void) | undefined;
	private readonly settling = new Set<Promise<void>>();
	/** Finish now was asked: no new round starts, and the first answer (or the ones there are) ends it. */
	private finishing = false;
	/** How the last coordination ended, with its quorum and saving (`quorum.ts`). */
	private ending: CoordinationRecord | undefined;

	constructor(
		private readonly run: {
			readonly settings: OrchestratorSettings;
			readonly signal: AbortSignal;
			readonly clock: RunClock;
			readonly events: RunEventStream;
			readonly driver: TurnDriver;
			readonly runtimes: ReadonlyMap<string, AgentRuntime>;
			/** Config ids in anonymous order: every attempt's board uses the same ids. */
			readonly order: readonly string[];
			/** What every turn of the current attempt reads. */
			readonly turnContext: () => TurnContext;
			/** The agent's coordination toolbox over its overlay, reading these answers. */
			readonly toolbox: (rt: AgentRuntime, answers: ReadonlyMap<string, OverlaySnapshot>) => Toolbox;
			/** The user's messages: a vote decided before one that took the voter's vote away is stale. */
			readonly steering: SteerFeed;
			/** What a quorum stop saved: the agents not waited for, their calls in flight. */
			readonly saving: (notWaitedFor: readonly AgentRuntime[]) => CoordinationRecord['saved'];
			/** The evaluation checklist; absent when off. */
			readonly checklist?: ChecklistBoard;
		},
	) {
		this.current = new Board(run.order);
	}

	get board(): Board {
		return this.current;
	}

	get active(): boolean {
		return this.coordinating;
	}

	/** How the last coordination ended; undefined before one has. */
	get record(): CoordinationRecord | undefined {
		return this.ending;
	}

	/** A new attempt: a new board. */
	reset(): void {
		this.current = new Board(this.run.order);
		this.finishing = false;
	}

	/**
	 * Finish now (the user's): no new round starts; coordination ends as soon as there is an answer
	 * (at once when there is one). False outside coordination.
	 */
	finishNow(): boolean {
		if (!this.coordinating) return false;
		this.finishing = true;
		if (this.current.latestAnswers().length > 0) this.end('finished-by-user');
		else this.schedule();
		return true;
	}

	/** The user's message took these agents' votes away: each decides again (a new round, or its running one). */
	steered(agentIds: readonly string[]): void {
		for (const agentId of agentIds) this.current.removeVote(agentId);
		this.schedule();
	}

	/** Resolves when every live agent holds a valid vote, or on timeout, cancel, budget or exhaustion. */
	async coordinate(): Promise<CoordinationEnd> {
		const { signal, clock, settings } = this.run;
		let cancelTimer: (() => void) | undefined;
		const onAbort = () => this.end('cancelled');
		const end = await new Promise<CoordinationEnd>((resolve) => {
			this.coordinating = true;
			this.ending = undefined;
			this.endCoordination = (reason) => {
				if (!this.coordinating) return;
				this.coordinating = false;
				this.ending ??= { ended: reason };
				resolve(reason);
			};
			if (signal.aborted) return this.end('cancelled');
			signal.addEventListener('abort', onAbort, { once: true });
			cancelTimer = clock.setTimer(settings.coordinationTimeoutMs, () => this.end('timeout'));
			this.schedule();
		});
		cancelTimer?.();
		signal.removeEventListener('abort', onAbort);
		this.endCoordination = undefined;
		await this.stopAll();
		return end;
	}

	/** Ends coordination (a no-op once it has ended). */
	end(reason: CoordinationEnd): void {
		this.endCoordination?.(reason);
	}

	async stopAll(): Promise<void> {
		for (const rt of this.run.runtimes.values()) rt.running?.controller.abort(stopReasons.coordinationEnded);
		await Promise.all([...this.settling]);
	}

	/** Takes an agent out of coordination: its vote leaves, its execution stops. */
	kill(rt: AgentRuntime, reason: string, event?: RunEventBody): void {
		if (rt.killed) return;
		rt.killed = true;
		this.current.removeVote(rt.spec.id);
		this.run.events.emit(event ?? { type: 'agent-killed', agentId: rt.spec.id, reason });
		rt.running?.controller.abort(stopReasons.killed);
		this.checkConsensus();
		this.schedule();
	}

	/** Starts an execution for every live agent that has no valid vote and is not running. */
	private schedule(): void {
		if (!this.coordinating) return;
		this.checkConsensus();
		if (!this.coordinating) return;
		const maxRounds = this.run.settings.maxRounds;
		const drafting = this.draftingAgents();
		const runtimes = [...this.run.runtimes.values()];
		for (const rt of this.finishing ? [] : runtimes) {
			const roundsLeft = maxRounds === null || rt.rounds < maxRounds;
			const idle = !rt.killed && !rt.running && !this.current.hasVote(rt.spec.id) && roundsLeft;
			if (idle && !drafting.some((other) => other !== rt)) this.start(rt, 0);
		}
		const live = runtimes.filter((rt) => !rt.killed);
		if (live.length === 0 || live.every((rt) => !rt.running)) this.end('exhausted');
	}

	/**
	 * Live agents whose execution cannot vote yet (its snapshot holds no answer, and it is not
	 * running tools, after which the answers that landed meanwhile reach it), so it will end in an
	 * answer. Other agents wait for those answers before starting a round: a round started now would
	 * be invalidated when they land (MassGen: every agent answers first), and answers that land close
	 * together then cost one round, not one each.
	 */
	private draftingAgents(): AgentRuntime[] {
		return [...this.run.runtimes.values()].filter((rt) => !rt.killed && isDrafting(rt));
	}

	private checkConsensus(): void {
		const live = [...this.run.runtimes.values()].filter((rt) => !rt.killed);
		if (live.length > 0 && live.every((rt) => this.current.hasVote(rt.spec.id))) return this.end('consensus');
		const reached = quorumReached(this.run.settings.quorum, live.length, this.current.votes());
		if (!reached || !this.coordinating) return;
		const notWaitedFor = live.filter((rt) => !this.current.hasVote(rt.spec.id));
		const saved = this.run.saving(notWaitedFor);
		this.ending = { ended: 'quorum', quorum: reached, ...(saved ? { saved } : {}) };
		this.end('quorum');
	}

	private start(rt: AgentRuntime, delayMs: number): void {
		const { signal, clock, settings } = this.run;
		const controller = new AbortController();
		const forward = () => controller.abort(signal.reason);
		signal.addEventListener('abort', forward, { once: true });
		const running = { controller, execution: undefined as AgentExecution | undefined, runningTools: false };
		rt.running = running;
		const task = (async (): Promise<Outcome> => {
			if (delayMs > 0) await sleep(delayMs, controller.signal, clock).catch(() => undefined);
			if (controller.signal.aborted) return { kind: 'stopped' };
			rt.rounds++;
			const execution = new AgentExecution(
				rt.spec,
				rt.anonId,
				rt.overlay,
				this.context(rt),
				controller.signal,
			);
			running.execution = execution;
			this.run.events.emit({
				type: 'round-start',
				agentId: rt.spec.id,
				round: rt.rounds,
				snapshot: execution.startLabels,
			});
			const timeout = settings.agentTurnTimeoutMs;
			const cancelTimer =
				timeout === null
					? undefined
					: clock.setTimer(timeout, () => controller.abort(stopReasons.turnTimeout));
			try {
				return await this.execute(rt, execution, controller.signal);
			} finally {
				cancelTimer?.();
			}
		})();
		const settled = task
			.catch((error: unknown): Outcome => {
				const message = `internal error: ${(error as Error).message}`;
				return { kind: 'done', value: { kind: 'exhausted', message } };
			})
			.then((outcome) => {
				signal.removeEventListener('abort', forward);
				rt.running = undefined;
				this.executionEnded(rt, outcome, controller.signal.reason);
			})
			.finally(() => this.settling.delete(settled));
		this.settling.add(settled);
	}

	/** Drives the execution and applies its decision; a stale vote sends it back with the new answers. */
	private async execute(rt: AgentRuntime, execution: AgentExecution, signal: AbortSignal): Promise<Outcome> {
		const running = rt.running!;
		let drafting = isDrafting(rt);
		// An execution that was certain to answer no longer is: agents waiting for its answer may start.
		const draftingMayHaveChanged = () => {
			const now = isDrafting(rt);
			if (drafting && !now) this.schedule();
			drafting = now;
		};
		const hooks = {
			stepBegun: draftingMayHaveChanged,
			toolsBegin: () => {
				running.runningTools = true;
				draftingMayHaveChanged();
			},
			toolsEnd: () => {
				running.runningTools = false;
				drafting = isDrafting(rt);
			},
			out: (reason: string) => {
				if (this.coordinating) this.kill(rt, reason);
			},
		};
		for (;;) {
			const outcome = await this.run.driver.drive(execution, rt, signal, hooks);
			if (outcome.kind !== 'done') return outcome;
			const decision = outcome.value;
			if (decision.kind === 'answer') this.applyAnswer(rt, decision);
			if (decision.kind === 'answer' && this.finishing) this.end('finished-by-user');
			if (decision.kind !== 'vote' || this.applyVote(rt, decision) === 'accepted') return outcome;
			execution.voteWasStale(decision);
			draftingMayHaveChanged();
		}
	}

	private executionEnded(rt: AgentRuntime, outcome: Outcome, reason: unknown): void {
		if (!this.coordinating || rt.killed) return;
		const { settings, events } = this.run;
		if (reason === stopReasons.turnTimeout) {
			const seconds = Math.round((settings.agentTurnTimeoutMs ?? 0) / 1000);
			return this.kill(rt, `exceeded its turn timeout (${seconds} s)`);
		}
		const decision = outcome.kind === 'done' ? outcome.value : undefined;
		if (decision?.kind === 'exhausted') {
			const failures = ++rt.exhaustedTurns;
			rt.lastError = decision.message;
			events.emit({
				type: 'agent-error',
				agentId: rt.spec.id,
				message: decision.message,
				kind: 'workflow',
				retryable: true,
				failures,
			});
			if (failures >= settings.maxAgentFailures) {
				return this.kill(rt, `failed ${failures} turns in a row: ${decision.message}`);
			}
			this.start(rt, this.run.driver.backoff(failures));
			// Its next turn starts from the answers there are now: agents that waited for it may go.
			this.schedule();
			return;
		}
		if (decision !== undefined) rt.exhaustedTurns = 0;
		this.schedule();
	}

	private applyAnswer(rt: AgentRuntime, decision: Extract<ExecutionDecision, { kind: 'answer' }>): void {
		const { events } = this.run;
		const agentId = rt.spec.id;
		const { content, overlay } = decision;
		const { record, invalidated } = this.current.acceptAnswer(agentId, content, overlay, events.now());
		events.emit({ type: 'new-answer', agentId, label: record.label, content });
		if (invalidated.length > 0) {
			events.emit({ type: 'votes-invalidated', voters: invalidated, byLabel: record.label });
		}
		this.run.checklist?.merge(agentId, rt.rounds, decision.proposals);
		for (const other of this.run.runtimes.values()) {
			if (other !== rt) other.running?.execution?.answersChanged(other.firstOutput.ms);
		}
		this.schedule();
	}

	private applyVote(rt: AgentRuntime, decision: Extract<ExecutionDecision, { kind: 'vote' }>) {
		const agentId = rt.spec.id;
		const { target, reason, snapshotVersion, steerSeen, scores } = decision;
		if (this.run.steering.lastInvalidating(agentId) > steerSeen) return 'stale';
		const vote = this.current.castVote(agentId, target, reason, snapshotVersion, scores);
		if (vote === 'stale') return 'stale';
		this.run.events.emit({
			type: 'vote',
			agentId,
			voter: agentId,
			votedFor: vote.label,
			votedForAgent: vote.votedForAgent,
			reason,
			...(scores ? { scores } : {}),
		});
		this.run.checklist?.merge(agentId, rt.rounds, decision.proposals);
		this.checkConsensus();
		return 'accepted';
	}

	private context(rt: AgentRuntime): ExecutionContext {
		return {
			...this.run.turnContext(),
			anonIds: this.current.anonIds,
			peers: this.current,
			toolbox: (answers) => this.run.toolbox(rt, answers),
			...(this.run.checklist ? { checklist: this.run.checklist.forExecution(rt.spec.id, rt.rounds) } : {}),
		};
	}
}

function isDrafting(rt: AgentRuntime): boolean {
	const running = rt.running;
	return running?.execution?.mustAnswer === true && !running.runningTools;
}
