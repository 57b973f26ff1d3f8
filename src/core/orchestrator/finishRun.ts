import { runPresentation } from '../agents/presentation.js';
import type { FileChange } from '../workspace/types.js';
import type { AgentRuntime } from './agentRuntime.js';
import { stopReasons } from './agentRuntime.js';
import type { AnswerRecord } from './board.js';
import type { RunStatus } from '../events/runEvents.js';
import type { CoordinationEnd, Orchestrator } from './orchestrator.js';
import { selectWinner } from './selectWinner.js';
import type { AnswerChangeSet, RunResult } from './types.js';

/**
 * After coordination (or for a single agent): pick the winner, run its presentation under its
 * own timeout, fall back to the stored answer when the presentation fails, and end the run.
 */
export async function finishRun(orchestrator: Orchestrator, end: CoordinationEnd | undefined): Promise<RunResult> {
	if (orchestrator.signal.aborted || end === 'cancelled') return finish(orchestrator, 'cancelled', {});
	if (end === undefined) return presentSingle(orchestrator);
	const answers = orchestrator.board.latestAnswers();
	const winner = selectWinner(answers, orchestrator.board.votes());
	const timedOut = end === 'timeout';
	if (!winner) {
		const why = timedOut ? 'the coordination timeout passed before any answer' : failureSummary(orchestrator);
		return finish(orchestrator, timedOut ? 'timeout' : 'failed', { error: why });
	}
	orchestrator.emit({ type: 'winner-selected', ...winner });
	const rt = orchestrator.runtimes.get(winner.agentId)!;
	const stored = orchestrator.board.latestAnswer(winner.agentId)!;
	const presented = rt.killed ? undefined : await present(orchestrator, rt, stored);
	if (orchestrator.signal.aborted) return finish(orchestrator, 'cancelled', {});
	const content = presented?.text || stored.content;
	const changes = presented?.changes ?? (await orchestrator.options.workspace.createOverlay(stored.overlay).changes());
	const answerChanges = await answerChangesOf(orchestrator);
	if (orchestrator.signal.aborted) return finish(orchestrator, 'cancelled', {});
	orchestrator.emit({ type: 'final-answer', agentId: rt.spec.id, label: `${rt.anonId}.final`, content });
	return finish(orchestrator, timedOut ? 'timeout' : 'completed', { winner: { agentId: winner.agentId, label: winner.label }, finalAnswer: content, changes, answerChanges });
}

async function presentSingle(orchestrator: Orchestrator): Promise<RunResult> {
	const rt = [...orchestrator.runtimes.values()][0]!;
	orchestrator.emit({ type: 'winner-selected', agentId: rt.spec.id, label: `${rt.anonId}.final`, tally: {}, reason: 'no-votes' });
	const presented = await present(orchestrator, rt, undefined);
	if (orchestrator.signal.aborted) return finish(orchestrator, 'cancelled', {});
	if (!presented?.text) {
		return finish(orchestrator, 'failed', { error: `${rt.spec.id} produced no answer${rt.lastError ? `: ${rt.lastError}` : ''}` });
	}
	orchestrator.emit({ type: 'final-answer', agentId: rt.spec.id, label: `${rt.anonId}.final`, content: presented.text });
	return finish(orchestrator, 'completed', { winner: { agentId: rt.spec.id, label: `${rt.anonId}.final` }, finalAnswer: presented.text, changes: presented.changes });
}

/** Undefined when the presentation failed or timed out: the stored answer stands. */
async function present(orchestrator: Orchestrator, rt: AgentRuntime, stored: AnswerRecord | undefined) {
	orchestrator.emit({ type: 'presentation-start', agentId: rt.spec.id });
	const controller = new AbortController();
	const forward = () => controller.abort(orchestrator.signal.reason);
	orchestrator.signal.addEventListener('abort', forward, { once: true });
	const timer = setTimeout(() => controller.abort(stopReasons.presentationTimeout), orchestrator.settings.presentationTimeoutMs);
	try {
		const overlay = orchestrator.options.workspace.createOverlay(stored?.overlay);
		const votes = orchestrator.board.votes();
		const result = await runPresentation(
			{
				agent: rt.spec,
				anonId: stored ? rt.anonId : undefined,
				answers: orchestrator.board.latestAnswers(),
				voteReasons: votes.map((vote) => ({ label: vote.label, reason: vote.reason })),
				overlay,
			},
			orchestrator,
			controller.signal,
		);
		if (result.kind === 'stopped') {
			if (controller.signal.reason === stopReasons.presentationTimeout) {
				orchestrator.emit({ type: 'agent-error', agentId: rt.spec.id, message: 'presentation timed out; the stored answer stands', kind: 'timeout', retryable: false, failures: rt.failures });
			}
			return undefined;
		}
		return { text: result.text, changes: await overlay.changes() };
	} finally {
		clearTimeout(timer);
		orchestrator.signal.removeEventListener('abort', forward);
	}
}

function finish(
	orchestrator: Orchestrator,
	status: RunStatus,
	parts: {
		winner?: RunResult['winner'];
		finalAnswer?: string;
		changes?: readonly FileChange[];
		answerChanges?: readonly AnswerChangeSet[];
		error?: string;
	},
): RunResult {
	const base = emptyResult(orchestrator);
	const result: RunResult = {
		...base,
		status,
		winner: parts.winner ?? null,
		answers: orchestrator.board.latestAnswers().map((answer) => ({ agentId: answer.agentId, label: answer.label, content: answer.content })),
		votes: orchestrator.board.votes().map((vote) => ({ voter: vote.voter, votedFor: vote.votedForAgent, votedForLabel: vote.label, reason: vote.reason })),
		finalAnswer: status === 'cancelled' ? null : (parts.finalAnswer ?? null),
		changes: status === 'cancelled' ? [] : (parts.changes ?? []),
		...(parts.answerChanges && status !== 'cancelled' ? { answerChanges: parts.answerChanges } : {}),
		...(parts.error ? { error: parts.error } : {}),
	};
	orchestrator.emit({ type: 'run-end', status, durationMs: result.durationMs, ...(parts.error ? { error: parts.error } : {}) });
	return result;
}

/** Every latest answer's overlay as a change set (consensus marks in the review). */
async function answerChangesOf(orchestrator: Orchestrator): Promise<AnswerChangeSet[]> {
	const workspace = orchestrator.options.workspace;
	return Promise.all(
		orchestrator.board.latestAnswers().map(async (answer) => ({
			agentId: answer.agentId,
			label: answer.label,
			changes: await workspace.createOverlay(answer.overlay).changes(),
		})),
	);
}

function failureSummary(orchestrator: Orchestrator): string {
	const errors = [...orchestrator.runtimes.values()].filter((rt) => rt.lastError).map((rt) => `${rt.spec.id}: ${rt.lastError}`);
	return errors.length ? `no agent produced an answer (${errors.join('; ')})` : 'no agent produced an answer';
}

export function emptyResult(orchestrator: Orchestrator): RunResult {
	return {
		runId: orchestrator.runId,
		question: orchestrator.question,
		status: 'failed',
		winner: null,
		answers: [],
		votes: [],
		finalAnswer: null,
		changes: [],
		usage: orchestrator.ledger.summary([...orchestrator.runtimes.keys()]),
		durationMs: Math.round(orchestrator.now()),
	};
}
