import { attachmentRecord } from '../context/attachment.js';
import { PresentationTurn } from '../agents/presentation.js';
import type { TurnContext } from '../agents/turn.js';
import type { Toolbox } from '../tools/types.js';
import type { RunStatus } from '../../contract/runEvents.js';
import type { RunClock } from '../util/clock.js';
import type { Overlay, Workspace } from '../workspace/types.js';
import type { FileChange } from '../../contract/fileChange.js';
import type { AgentRuntime } from './agentRuntime.js';
import { stopReasons } from './agentRuntime.js';
import type { AnswerRecord } from '../agents/answers.js';
import type { CoordinationEnd } from './coordination.js';
import type { Board } from './board.js';
import { selectWinner } from './selectWinner.js';
import type { OrchestratorSettings } from './types.js';
import type { AnswerChangeSet, RestartRecord, RunResult } from '../../contract/runResult.js';
import type { RunEventStream } from './runEventStream.js';
import type { SpendGuard } from './spendGuard.js';
import type { TurnDriver } from './turnDriver.js';
import type { UsageLedger } from './usageLedger.js';
import type { ChecklistBoard } from './checklistBoard.js';
import { unmetCriteriaBlock } from '../agents/checklistPrompts.js';

/** The orchestrator's state that ending a run reads; the orchestrator hands it over, nothing reaches in. */
export interface FinishingRun {
	readonly runId: string;
	readonly events: RunEventStream;
	/** Applies the presentation's and the evaluation's steps. */
	readonly driver: TurnDriver;
	readonly turnContext: TurnContext;
	/** `agentId`'s presentation toolbox over `overlay` (write tools, or read only). */
	readonly toolbox: (agentId: string, overlay: Overlay, writable: boolean) => Toolbox;
	readonly settings: OrchestratorSettings;
	readonly signal: AbortSignal;
	/** The presentation and post-evaluation timeouts run on it. */
	readonly clock: RunClock;
	readonly board: Board;
	readonly runtimes: ReadonlyMap<string, AgentRuntime>;
	readonly ledger: UsageLedger;
	/** The run budget: its `signal` stops the presentation and post-evaluation when a cap is reached. */
	readonly spend: SpendGuard;
	readonly workspace: Workspace;
	/** The agent presenting (and checking its presentation) from now on: the user's messages go to it. */
	readonly presenting: (agentId: string) => void;
	/** The evaluation checklist; absent when off. */
	readonly checklist?: ChecklistBoard;
}

/** A presented attempt, not yet ended: post-evaluation may still send it back. */
export interface PresentedAttempt {
	readonly status: 'completed' | 'timeout';
	readonly winner: { readonly agentId: string; readonly label: string };
	readonly presenter: AgentRuntime;
	readonly content: string;
	readonly changes: readonly FileChange[];
	readonly answerChanges?: readonly AnswerChangeSet[];
	/** The files as the answer proposes them (what post-evaluation reads). */
	readonly overlay: Overlay;
}

export type Presentation =
	| { readonly kind: 'presented'; readonly attempt: PresentedAttempt }
	/** The run ended without a presented answer (cancelled, failed, timed out): `run-end` was emitted. */
	| { readonly kind: 'ended'; readonly result: RunResult };

/**
 * After coordination (or for a single agent): pick the winner, run its presentation under its
 * own timeout, fall back to the stored answer when the presentation fails. `endPresented` ends
 * the run with it (after post-evaluation, when there is one).
 */
export async function presentRun(run: FinishingRun, end: CoordinationEnd | undefined): Promise<Presentation> {
	const ended = (result: RunResult) => ({ kind: 'ended', result }) as const;
	if (run.signal.aborted || end === 'cancelled') return ended(finish(run, 'cancelled', {}));
	if (end === undefined) return presentSingle(run);
	const answers = run.board.latestAnswers();
	// Finish now: with no votes, the answer the team arrived at last, not its first.
	const winner = selectWinner(answers, run.board.votes(), end === 'finished-by-user' ? 'latest' : 'earliest');
	const timedOut = end === 'timeout';
	if (!winner) {
		const why = timedOut
			? 'the coordination timeout passed before any answer'
			: (run.spend.reached?.reason ?? failureSummary(run));
		return ended(finish(run, timedOut ? 'timeout' : 'failed', { error: why }));
	}
	run.events.emit({ type: 'winner-selected', ...winner });
	const rt = run.runtimes.get(winner.agentId)!;
	const stored = run.board.latestAnswer(winner.agentId)!;
	const presented = rt.killed || run.spend.reached ? undefined : await present(run, rt, stored);
	if (run.signal.aborted) return ended(finish(run, 'cancelled', {}));
	const overlay = presented?.overlay ?? run.workspace.createOverlay(stored.overlay);
	const changes = presented?.changes ?? (await overlay.changes());
	const answerChanges = await answerChangesOf(run);
	if (run.signal.aborted) return ended(finish(run, 'cancelled', {}));
	return {
		kind: 'presented',
		attempt: {
			status: timedOut ? 'timeout' : 'completed',
			winner: { agentId: winner.agentId, label: winner.label },
			presenter: rt,
			content: presented?.text || stored.content,
			changes,
			answerChanges,
			overlay,
		},
	};
}

/** Ends the run with a presented attempt: its answer is final. */
export function endPresented(
	run: FinishingRun,
	attempt: PresentedAttempt,
	restarts: readonly RestartRecord[],
): RunResult {
	const { presenter } = attempt;
	run.events.emit({
		type: 'final-answer',
		agentId: presenter.spec.id,
		label: `${presenter.anonId}.final`,
		content: attempt.content,
	});
	return finish(run, attempt.status, {
		winner: attempt.winner,
		finalAnswer: attempt.content,
		changes: attempt.changes,
		...(attempt.answerChanges ? { answerChanges: attempt.answerChanges } : {}),
		...(restarts.length ? { restarts } : {}),
	});
}

/** Ends a cancelled run (nothing final, nothing to write). */
export function cancelRun(run: FinishingRun): RunResult {
	return finish(run, 'cancelled', {});
}

async function presentSingle(run: FinishingRun): Promise<Presentation> {
	const rt = [...run.runtimes.values()][0]!;
	const label = `${rt.anonId}.final`;
	run.events.emit({ type: 'winner-selected', agentId: rt.spec.id, label, tally: {}, reason: 'no-votes' });
	const presented = await present(run, rt, undefined);
	if (run.signal.aborted) return { kind: 'ended', result: finish(run, 'cancelled', {}) };
	if (!presented?.text) {
		const why = run.spend.reached?.reason ?? rt.lastError;
		const error = `${rt.spec.id} produced no answer${why ? `: ${why}` : ''}`;
		return { kind: 'ended', result: finish(run, 'failed', { error }) };
	}
	return {
		kind: 'presented',
		attempt: {
			status: 'completed',
			winner: { agentId: rt.spec.id, label },
			presenter: rt,
			content: presented.text,
			changes: presented.changes,
			overlay: presented.overlay,
		},
	};
}

/** Undefined when the presentation failed or timed out: the stored answer stands. */
async function present(run: FinishingRun, rt: AgentRuntime, stored: AnswerRecord | undefined) {
	run.presenting(rt.spec.id);
	run.events.emit({ type: 'presentation-start', agentId: rt.spec.id });
	const controller = new AbortController();
	const forward = () => controller.abort(run.signal.reason);
	run.signal.addEventListener('abort', forward, { once: true });
	const overBudget = () => controller.abort(stopReasons.coordinationEnded);
	run.spend.signal.addEventListener('abort', overBudget, { once: true });
	const cancelTimer = run.clock.setTimer(run.settings.presentationTimeoutMs, () =>
		controller.abort(stopReasons.presentationTimeout),
	);
	try {
		const overlay = run.workspace.createOverlay(stored?.overlay);
		const votes = run.board.votes();
		const unmet =
			stored && run.checklist
				? unmetCriteriaBlock(run.checklist.unmet(stored.label, votes), run.checklist.settings.threshold)
				: '';
		const turn = new PresentationTurn(
			{
				agent: rt.spec,
				anonId: stored ? rt.anonId : undefined,
				answers: run.board.latestAnswers(),
				voteReasons: votes.map((vote) => ({ label: vote.label, reason: vote.reason })),
				...(unmet ? { unmet } : {}),
				overlay,
				toolbox: run.toolbox(rt.spec.id, overlay, true),
			},
			run.turnContext,
			controller.signal,
		);
		const result = await run.driver.drive(turn, rt, controller.signal);
		if (result.kind !== 'done') {
			if (controller.signal.reason === stopReasons.presentationTimeout) {
				run.events.emit({
					type: 'agent-error',
					agentId: rt.spec.id,
					message: 'presentation timed out; the stored answer stands',
					kind: 'timeout',
					retryable: false,
					failures: rt.failures,
				});
			}
			return undefined;
		}
		return { text: result.value, changes: await overlay.changes(), overlay };
	} finally {
		cancelTimer();
		run.signal.removeEventListener('abort', forward);
		run.spend.signal.removeEventListener('abort', overBudget);
	}
}

function finish(
	run: FinishingRun,
	status: RunStatus,
	parts: {
		winner?: RunResult['winner'];
		finalAnswer?: string;
		changes?: readonly FileChange[];
		answerChanges?: readonly AnswerChangeSet[];
		restarts?: readonly RestartRecord[];
		error?: string;
	},
): RunResult {
	const base = emptyResult(run);
	const budget = run.spend.record();
	const result: RunResult = {
		...base,
		status,
		winner: parts.winner ?? null,
		answers: run.board
			.latestAnswers()
			.map((answer) => ({ agentId: answer.agentId, label: answer.label, content: answer.content })),
		votes: run.board.votes().map((vote) => ({
			voter: vote.voter,
			votedFor: vote.votedForAgent,
			votedForLabel: vote.label,
			reason: vote.reason,
			...(vote.scores ? { scores: vote.scores } : {}),
		})),
		...(run.checklist
			? { checklist: { criteria: [...run.checklist.inForce], threshold: run.checklist.settings.threshold } }
			: {}),
		finalAnswer: status === 'cancelled' ? null : (parts.finalAnswer ?? null),
		changes: status === 'cancelled' ? [] : (parts.changes ?? []),
		...(parts.answerChanges && status !== 'cancelled' ? { answerChanges: parts.answerChanges } : {}),
		...(parts.restarts ? { restarts: parts.restarts } : {}),
		...(parts.error ? { error: parts.error } : {}),
		...(budget ? { budget } : {}),
	};
	run.events.emit({
		type: 'run-end',
		status,
		durationMs: result.durationMs,
		...(parts.error ? { error: parts.error } : {}),
		...(budget ? { budget } : {}),
	});
	return result;
}

/** Every latest answer's overlay as a change set (consensus marks in the review). */
async function answerChangesOf(run: FinishingRun): Promise<AnswerChangeSet[]> {
	const workspace = run.workspace;
	return Promise.all(
		run.board.latestAnswers().map(async (answer) => ({
			agentId: answer.agentId,
			label: answer.label,
			changes: await workspace.createOverlay(answer.overlay).changes(),
		})),
	);
}

function failureSummary(run: FinishingRun): string {
	const errors = [...run.runtimes.values()]
		.filter((rt) => rt.lastError)
		.map((rt) => `${rt.spec.id}: ${rt.lastError}`);
	return errors.length ? `no agent produced an answer (${errors.join('; ')})` : 'no agent produced an answer';
}

export function emptyResult(run: FinishingRun): RunResult {
	const attachments = run.turnContext.attachments.map(attachmentRecord);
	return {
		runId: run.runId,
		question: run.turnContext.question,
		...(attachments.length ? { attachments } : {}),
		status: 'failed',
		winner: null,
		answers: [],
		votes: [],
		finalAnswer: null,
		changes: [],
		usage: run.ledger.summary([...run.runtimes.keys()]),
		durationMs: Math.round(run.events.now()),
	};
}
