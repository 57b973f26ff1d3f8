import { CriteriaGenerationTurn } from '../agents/criteriaGeneration.js';
import { stopReasons } from './agentRuntime.js';
import type { ChecklistBoard } from './checklistBoard.js';
import type { FinishingRun } from './finishRun.js';

/**
 * Before coordination: when the config gives no criteria and asks for them
 * (`evaluation_criteria_generator`), one call of the first agent's model writes them (its usage
 * counts as that agent's); then the `checklist` event says what is in force. A generator that
 * fails or writes nothing usable leaves the checklist empty, with a notice: the run goes on.
 */
export async function prepareChecklist(checklist: ChecklistBoard, run: FinishingRun): Promise<void> {
	if (checklist.settings.generate && checklist.inForce.length === 0) {
		const rt = [...run.runtimes.values()][0]!;
		const controller = new AbortController();
		const forward = () => controller.abort(run.signal.reason);
		run.signal.addEventListener('abort', forward, { once: true });
		const cancelTimer = run.clock.setTimer(run.settings.presentationTimeoutMs, () =>
			controller.abort(stopReasons.presentationTimeout),
		);
		try {
			const turn = new CriteriaGenerationTurn(rt.spec, run.turnContext, controller.signal);
			const driven = await run.driver.drive(turn, rt, controller.signal);
			if (driven.kind === 'done' && driven.value.length > 0) checklist.addGenerated(driven.value);
			else if (!run.signal.aborted) {
				run.events.emit({
					type: 'notice',
					agentId: rt.spec.id,
					message: 'the evaluation criteria generator wrote no criteria: the checklist starts empty',
				});
			}
		} finally {
			cancelTimer();
			run.signal.removeEventListener('abort', forward);
			// Its failed calls are not held against its coordination turns.
			rt.failures = 0;
		}
	}
	checklist.announce();
}
