import type { AgentHost } from '../agents/agentHost.js';
import { attachmentRecord } from '../context/attachment.js';
import { runPresentation } from '../agents/presentation.js';
import type { RunStatus } from '../events/runEvents.js';
import type { FileChange, Workspace } from '../workspace/types.js';
import type { AgentRuntime } from './agentRuntime.js';
import { stopReasons } from './agentRuntime.js';
import type { AnswerRecord, Board } from './board.js';
import { selectWinner } from './selectWinner.js';
import type { AnswerChangeSet, RunResult } from './types.js';
import type { UsageLedger } from './usageLedger.js';

export type CoordinationEnd = 'consensus' | 'timeout' | 'cancelled' | 'exhausted';

/** The orchestrator's state that ending a run reads; the orchestrator hands it over, nothing reaches in. */
export interface FinishingRun {
	/** Emits the run's events and runs the presentation. */
	readonly host: AgentHost;
	readonly runId: string;
	readonly signal: AbortSignal;
	readonly board: Board;
	readonly runtimes: ReadonlyMap<string, AgentRuntime>;
	readonly ledger: UsageLedger;
	readonly workspace: Workspace;
}

/**
 * After coordination (or for a single agent): pick the winner, run its presentation under its
 * own timeout, fall back to the stored answer when the presentation fails, and end the run.
 */
export async function finishRun(run: FinishingRun, end: CoordinationEnd | undefined): Promise<RunResult> {
	if (run.signal.aborted || end === 'cancelled') return finish(run, 'cancelled', {});
	if (end === undefined) return presentSingle(run);
	const answers = run.board.latestAnswers();
	const winner = selectWinner(answers, run.board.votes());
	const timedOut = end === 'timeout';
	if (!winner) {
		const why = timedOut ? 'the coordination timeout passed before any answer' : failureSummary(run);
		return finish(run, timedOut ? 'timeout' : 'failed', { error: why });
	}
	run.host.emit({ type: 'winner-selected', ...winner });
	const rt = run.runtimes.get(winner.agentId)!;
	const stored = run.board.latestAnswer(winner.agentId)!;
	const presented = rt.killed ? undefined : await present(run, rt, stored);
	if (run.signal.aborted) return finish(run, 'cancelled', {});
	const content = presented?.text || stored.content;
	const changes = presented?.changes ?? (await run.workspace.createOverlay(stored.overlay).changes());
	const answerChanges = await answerChangesOf(run);
	if (run.signal.aborted) return finish(run, 'cancelled', {});
	run.host.emit({ type: 'final-answer', agentId: rt.spec.id, label: `${rt.anonId}.final`, content });
	return finish(run, timedOut ? 'timeout' : 'completed', {
		winner: { agentId: winner.agentId, label: winner.label },
		finalAnswer: content,
		changes,
		answerChanges,
	});
}

async function presentSingle(run: FinishingRun): Promise<RunResult> {
	const rt = [...run.runtimes.values()][0]!;
	run.host.emit({
		type: 'winner-selected',
		agentId: rt.spec.id,
		label: `${rt.anonId}.final`,
		tally: {},
		reason: 'no-votes',
	});
	const presented = await present(run, rt, undefined);
	if (run.signal.aborted) return finish(run, 'cancelled', {});
	if (!presented?.text) {
		return finish(run, 'failed', {
			error: `${rt.spec.id} produced no answer${rt.lastError ? `: ${rt.lastError}` : ''}`,
		});
	}
	run.host.emit({
		type: 'final-answer',
		agentId: rt.spec.id,
		label: `${rt.anonId}.final`,
		content: presented.text,
	});
	return finish(run, 'completed', {
		winner: { agentId: rt.spec.id, label: `${rt.anonId}.final` },
		finalAnswer: presented.text,
		changes: presented.changes,
	});
}

/** Undefined when the presentation failed or timed out: the stored answer stands. */
async function present(run: FinishingRun, rt: AgentRuntime, stored: AnswerRecord | undefined) {
	run.host.emit({ type: 'presentation-start', agentId: rt.spec.id });
	const controller = new AbortController();
	const forward = () => controller.abort(run.signal.reason);
	run.signal.addEventListener('abort', forward, { once: true });
	const timer = setTimeout(
		() => controller.abort(stopReasons.presentationTimeout),
		run.host.settings.presentationTimeoutMs,
	);
	try {
		const overlay = run.workspace.createOverlay(stored?.overlay);
		const votes = run.board.votes();
		const result = await runPresentation(
			{
				agent: rt.spec,
				anonId: stored ? rt.anonId : undefined,
				answers: run.board.latestAnswers(),
				voteReasons: votes.map((vote) => ({ label: vote.label, reason: vote.reason })),
				overlay,
			},
			run.host,
			controller.signal,
		);
		if (result.kind === 'stopped') {
			if (controller.signal.reason === stopReasons.presentationTimeout) {
				run.host.emit({
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
		return { text: result.text, changes: await overlay.changes() };
	} finally {
		clearTimeout(timer);
		run.signal.removeEventListener('abort', forward);
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
		error?: string;
	},
): RunResult {
	const base = emptyResult(run);
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
		})),
		finalAnswer: status === 'cancelled' ? null : (parts.finalAnswer ?? null),
		changes: status === 'cancelled' ? [] : (parts.changes ?? []),
		...(parts.answerChanges && status !== 'cancelled' ? { answerChanges: parts.answerChanges } : {}),
		...(parts.error ? { error: parts.error } : {}),
	};
	run.host.emit({
		type: 'run-end',
		status,
		durationMs: result.durationMs,
		...(parts.error ? { error: parts.error } : {}),
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
	const attachments = run.host.attachments.map(attachmentRecord);
	return {
		runId: run.runId,
		question: run.host.question,
		...(attachments.length ? { attachments } : {}),
		status: 'failed',
		winner: null,
		answers: [],
		votes: [],
		finalAnswer: null,
		changes: [],
		usage: run.ledger.summary([...run.runtimes.keys()]),
		durationMs: Math.round(run.host.now()),
	};
}
