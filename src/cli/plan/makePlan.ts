/**
 * `massgen plan "TASK"`: one read-only run whose agents answer with plans (`planQuestion`), then
 * the plan document made from the run (`planFromRun`: each step marked with how many agents' plans
 * had it) stored under `.massgen/plans/<run id>.md`.
 */
import { planQuestion } from '../../core/plans/planPrompt.js';
import { parsePlanDocument, type PlanDocument } from '../../core/plans/planDocument.js';
import { PlanError } from '../../core/plans/planError.js';
import { planFromRun } from '../../core/plans/planRequests.js';
import { savePlan } from '../../core/plans/planStore.js';
import type { PlanArgs } from './planArgs.js';
import { planExit, statusExit, type PlanSession } from './planSession.js';

export type MadePlan =
	| {
			readonly ok: true;
			readonly path: string;
			readonly text: string;
			readonly doc: PlanDocument;
			readonly runId: string;
			/** The run's exit code: 3 when it timed out but a plan was presented. */
			readonly code: number;
	  }
	| { readonly ok: false; readonly code: number };

export async function makePlan(session: PlanSession, task: NonNullable<PlanArgs['task']>): Promise<MadePlan> {
	const { root, say } = session;
	const ran = await session.run({
		question: planQuestion(task.text, task.depth),
		readOnly: true,
		plan: { kind: 'planning', planId: '', depth: task.depth, task: task.text },
	});
	if (!ran.ok) return ran;
	const { result } = ran.outcome;
	if (result.status === 'cancelled' || result.finalAnswer === null) {
		say(`no plan: the planning run ${endedWords(result.status)}`);
		return { ok: false, code: result.status === 'completed' ? planExit.failed : statusExit[result.status] };
	}
	let text: string;
	try {
		text = planFromRun(result, {
			id: result.runId,
			task: task.text,
			depth: task.depth,
			run: result.runId,
			created: new Date().toISOString(),
		});
	} catch (error) {
		// No agent's answer holds a step in the plan format: nothing is saved.
		if (!PlanError.is(error)) throw error;
		say(`no plan: ${error.message} (the team's answer: massgen show ${result.runId})`);
		return { ok: false, code: planExit.failed };
	}
	let path: string;
	try {
		path = await savePlan(root, result.runId, text);
	} catch (error) {
		// `.massgen` or `.massgen/plans` is a link or a file: the folder's state, said as such.
		if (!PlanError.is(error)) throw error;
		say(`the plan was not saved: ${error.message} (the team's plan: massgen show ${result.runId})`);
		return { ok: false, code: planExit.usageOrPlan };
	}
	const doc = parsePlanDocument(text, path);
	return { ok: true, path, text, doc, runId: result.runId, code: statusExit[result.status] };
}

export function endedWords(status: string): string {
	switch (status) {
		case 'failed':
			return 'failed';
		case 'timeout':
			return 'timed out without an answer';
		case 'cancelled':
			return 'was cancelled';
		default:
			return 'ended without an answer';
	}
}
