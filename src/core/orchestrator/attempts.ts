/**
 * The post-evaluation loop (MassGen §1.10): coordination and presentation, then, while restarts
 * are left, an evaluation that may send the run back to coordination, every agent afresh with the
 * evaluator's reasons. Nothing of an attempt it discards was ever written.
 */
import { restartFeedbackBlock } from '../agents/evaluationPrompts.js';
import type { RunEventBody } from '../../contract/runEvents.js';
import { evaluateAttempt } from './evaluateAttempt.js';
import { cancelRun, endPresented, presentRun, type CoordinationEnd, type FinishingRun } from './finishRun.js';
import type { OrchestratorSettings, RestartRecord, RunResult } from './types.js';

/** What the loop needs of the orchestrator; it keeps no state of its own besides the restarts. */
export interface AttemptsHost {
	readonly settings: OrchestratorSettings;
	readonly signal: AbortSignal;
	/** One agent, or coordination skipped: straight to presentation. */
	readonly single: boolean;
	coordinate(): Promise<CoordinationEnd>;
	beginPresentation(): void;
	finishing(): FinishingRun;
	/** A new attempt: a new board and empty overlays; `feedback` goes to every agent's prompt. */
	restart(feedback: string): void;
	emit(body: RunEventBody): void;
}

export async function runAttempts(host: AttemptsHost): Promise<RunResult> {
	const restarts: RestartRecord[] = [];
	for (let attempt = 1; ; attempt++) {
		const end = host.single ? undefined : await host.coordinate();
		host.beginPresentation();
		const presentation = await presentRun(host.finishing(), end);
		if (presentation.kind === 'ended') return presentation.result;
		const presented = presentation.attempt;
		// Over budget no call starts: the presented answer is final, unchecked.
		if (attempt > host.settings.maxOrchestrationRestarts || host.finishing().spend.reached) {
			return endPresented(host.finishing(), presented, restarts);
		}
		const verdict = await evaluateAttempt(host.finishing(), presented, attempt);
		if (verdict.kind === 'stopped' || host.signal.aborted) return cancelRun(host.finishing());
		// A restart verdict whose own call reached the budget cannot start coordination again.
		if (verdict.kind !== 'restart' || host.finishing().spend.reached) {
			return endPresented(host.finishing(), presented, restarts);
		}
		const { reason, instructions } = verdict;
		restarts.push({
			attempt,
			winner: presented.winner,
			finalAnswer: presented.content,
			reason,
			instructions,
		});
		host.restart(
			restartFeedbackBlock({ attempt: attempt + 1, reason, instructions, previousAnswer: presented.content }),
		);
		host.emit({ type: 'attempt-start', attempt: attempt + 1, reason, instructions });
	}
}
