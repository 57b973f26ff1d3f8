/**
 * From a plan run to the document, and from the document to the runs that carry it out. A step's
 * run gets a short question naming the step and the whole plan, as the user left it, as a `text`
 * attachment: the same bytes for every agent, in the prompt's cached context section.
 */
import type { PlanRunRecord } from '../../contract/plan.js';
import type { RunResult } from '../../contract/runResult.js';
import type { AttachmentRequest } from '../context/attachment.js';
import { planAgreement } from './planAgreement.js';
import { renderPlanDocument, type PlanDocument, type PlanMeta, type PlanStep } from './planDocument.js';
import { PlanError } from './planError.js';

/** The plan document of a finished plan run; `PlanError` when no agent's answer holds a step. */
export function planFromRun(
	result: Pick<RunResult, 'winner' | 'answers' | 'finalAnswer'>,
	meta: Omit<PlanMeta, 'agents'>,
): string {
	const plan = planAgreement(result);
	if (plan.steps.length === 0) {
		throw new PlanError(
			"the team's answer has no steps in the plan format (numbered steps, `1. **what it does**`); nothing was saved",
		);
	}
	return renderPlanDocument({ ...meta, agents: plan.of }, plan);
}

export interface StepRequest {
	readonly question: string;
	readonly attachments: AttachmentRequest[];
	readonly plan: PlanRunRecord;
}

/** The first step not ticked; undefined when every step is done. */
export function nextStep(doc: PlanDocument): PlanStep | undefined {
	return doc.steps.find((step) => !step.done);
}

/** Step `index` (1-based) of the plan at `relPath` (workspace-relative, as the attachment names it). */
export function stepRequest(doc: PlanDocument, relPath: string, index: number): StepRequest {
	const step = doc.steps[index - 1];
	if (!step) throw new PlanError(`the plan has no step ${index} (it has ${doc.steps.length})`);
	const of = doc.steps.length;
	const question = [
		`Carry out step ${index} of ${of} of the plan attached above (${relPath}), and only that step: ${step.title}`,
		...(step.body ? ['', step.body] : []),
		'',
		'Steps ticked [x] in the plan are done and accepted. Do not start later steps. Make the file edits this step needs, check them as the step says, and say in your answer what you changed and how you checked it.',
	].join('\n');
	return {
		question,
		attachments: [planAttachment(doc, relPath)],
		plan: { kind: 'step', planId: doc.meta.id, step: index, of, title: step.title },
	};
}

/** Every step not yet ticked, in one run. */
export function allStepsRequest(doc: PlanDocument, relPath: string): StepRequest {
	const left = doc.steps.filter((step) => !step.done);
	if (left.length === 0) throw new PlanError('every step of the plan is done');
	const question = [
		`Carry out the plan attached above (${relPath}): every step not ticked [x], in order, in this one answer:`,
		...left.map((step) => `${step.index}. ${step.title}`),
		'',
		'Steps ticked [x] are done and accepted. Make the file edits the steps need, check them as each step says, and say in your answer what you changed for each step and how you checked it.',
	].join('\n');
	return {
		question,
		attachments: [planAttachment(doc, relPath)],
		plan: { kind: 'all', planId: doc.meta.id, of: doc.steps.length },
	};
}

function planAttachment(doc: PlanDocument, relPath: string): AttachmentRequest {
	return { kind: 'text', source: `plan ${relPath}`, text: `Task: ${doc.meta.task}\n\n${doc.body}` };
}

/**
 * The plan's run a step follows: the step's own last run (it stopped there), else the last run of
 * a step before it, else the planning run. All steps at once (`index` undefined): the last step
 * with a run, else the planning run.
 */
export function lastPlanRun(doc: PlanDocument, index: number | undefined): string {
	const step = index === undefined ? undefined : doc.steps[index - 1];
	if (step?.runId) return step.runId;
	const before = index === undefined ? doc.steps : doc.steps.slice(0, index - 1);
	return before.findLast((candidate) => candidate.runId !== null)?.runId ?? doc.meta.run;
}
