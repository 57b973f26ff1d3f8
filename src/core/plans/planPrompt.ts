/**
 * The question a plan run sends to the team: the task and the one format every agent's plan is
 * written in, so `parsePlanAnswer` can read each agent's plan and `planAgreement` compare them.
 * The agents only read (the run gives them the read-only role); the plan is their answer.
 */
import type { PlanDepth } from '../../contract/plan.js';

const depthWords: Readonly<Record<PlanDepth, string>> = {
	shallow: 'Keep it high level: 3 to 5 steps.',
	medium: 'Use 5 to 10 steps.',
	deep: 'Break it down finely: 10 to 20 steps, each small enough to review as one change.',
	dynamic:
		'Use as many steps as the task needs, no more: each step one change a reviewer can judge on its own.',
};

export function planQuestion(task: string, depth: PlanDepth): string {
	return [
		'Plan the task below; do not carry it out. Read the workspace with your tools first, as much as the plan needs. You cannot edit files in this run: your answer is the plan.',
		'',
		'<TASK>',
		task,
		'</TASK>',
		'',
		`Each step is one change the user reviews and accepts before the next starts, in an order where every step leaves the project working. ${depthWords[depth]}`,
		"When you read the other agents' plans, take what is better in them into yours, or vote for the plan you would carry out.",
		'',
		'Write the plan in exactly this format (Markdown):',
		'',
		'# Plan: <a short title>',
		'',
		'1. **<what the step does, in a few words>**',
		'   Files: `path/one.ts`, `path/two.ts`',
		'   Risk: low | medium | high — <what could go wrong>',
		'   Verify: <how to check the step is done, e.g. a test command>',
		'   <what to change and why, in a few sentences>',
		'',
		'2. **<…>**',
		'',
		'Paths are relative to the workspace. Nothing else before the title; after the last step, at most a short note.',
	].join('\n');
}
