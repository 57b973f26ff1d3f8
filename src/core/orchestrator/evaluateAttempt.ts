import { EvaluationTurn, type EvaluationVerdict } from '../agents/postEvaluation.js';
import { stopReasons } from './agentRuntime.js';
import type { FinishingRun, PresentedAttempt } from './finishRun.js';

/**
 * Runs post-evaluation for a presented attempt under the presentation timeout, with its events.
 * A presenter that was killed, or a stored answer standing in for a failed presentation, is
 * still evaluated: the verdict is about the answer, not about who wrote it.
 */
export async function evaluateAttempt(
	run: FinishingRun,
	attempt: PresentedAttempt,
	number: number,
): Promise<EvaluationVerdict> {
	const agentId = attempt.presenter.spec.id;
	run.events.emit({ type: 'evaluation-start', agentId, attempt: number });
	const controller = new AbortController();
	const forward = () => controller.abort(run.signal.reason);
	run.signal.addEventListener('abort', forward, { once: true });
	run.spend.signal.addEventListener('abort', forward, { once: true });
	const cancelTimer = run.clock.setTimer(run.settings.presentationTimeoutMs, () =>
		controller.abort(stopReasons.presentationTimeout),
	);
	let verdict: EvaluationVerdict;
	try {
		const overlay = run.workspace.createOverlay(attempt.overlay.snapshot());
		const turn = new EvaluationTurn(
			{
				agent: attempt.presenter.spec,
				finalAnswer: attempt.content,
				changes: attempt.changes,
				overlay,
				reader: run.toolbox(agentId, overlay, false),
			},
			run.turnContext,
			controller.signal,
		);
		const driven = await run.driver.drive(turn, attempt.presenter, controller.signal);
		// A call that failed for good leaves the answer standing, as one with no verdict does.
		verdict =
			driven.kind === 'done'
				? driven.value
				: driven.kind === 'failed' && !controller.signal.aborted
					? { kind: 'auto', why: 'failed' }
					: { kind: 'stopped' };
	} finally {
		cancelTimer();
		run.signal.removeEventListener('abort', forward);
		run.spend.signal.removeEventListener('abort', forward);
	}
	if (verdict.kind === 'stopped' && !run.signal.aborted) {
		verdict = { kind: 'auto', why: run.spend.reached?.reason ?? 'timed out' };
	}
	if (verdict.kind === 'stopped') return verdict;
	run.events.emit({
		type: 'evaluation-end',
		agentId,
		attempt: number,
		verdict: verdict.kind,
		...(verdict.kind === 'restart' ? { reason: verdict.reason, instructions: verdict.instructions } : {}),
		...(verdict.kind === 'auto' ? { reason: verdict.why } : {}),
	});
	return verdict;
}
