/**
 * `massgen plan` (docs/cli.md#massgen-plan), and `massgen run` with MassGen's plan flags: plan a
 * task (`makePlan.ts`), execute a plan (`executePlan.ts`), or both. stdout: the plan document and
 * each step's answer, or with `--json` one object; stderr: progress, run logs, the plan's path.
 */
import { stat } from 'node:fs/promises';
import type { PlanDocument } from '../../core/plans/planDocument.js';
import type { CliIo } from '../cliIo.js';
import { executePlan, pendingHint, type Execution } from './executePlan.js';
import { makePlan, type MadePlan } from './makePlan.js';
import type { PlanArgs } from './planArgs.js';
import { planExit, planSession } from './planSession.js';

export async function planCommand(command: PlanArgs, callerIo: CliIo): Promise<number> {
	const session = planSession(command, callerIo);
	const { io, root, say } = session;
	if (!(await isDirectory(root))) {
		say(`workspace '${root}' is not a folder`);
		return planExit.usageOrPlan;
	}
	let made: Extract<MadePlan, { ok: true }> | undefined;
	if (command.task) {
		const planned = await makePlan(session, command.task);
		if (!planned.ok) return planned.code;
		made = planned;
		say(
			`plan: ${made.path} (${made.doc.steps.length} step(s); edit it freely, then massgen plan --execute ${made.runId})`,
		);
		if (!command.json) io.stdout.write(`${made.text.trimEnd()}\n\n`);
		if (!command.execute || made.code !== planExit.done) {
			if (command.json) writeJson(io, made.path, made.doc, made, null);
			return made.code;
		}
	}
	const execute = command.execute!;
	const execution = await executePlan(session, execute.ref ?? made!.path, execute);
	if (execution.pending) for (const line of pendingHint(root, execution.pending)) say(line);
	if (execution.path) {
		const done = execution.doc?.steps.filter((step) => step.done).length ?? 0;
		say(`plan: ${execution.path} (${done} of ${execution.doc?.steps.length ?? 0} step(s) done)`);
	}
	if (command.json) writeJson(io, execution.path, execution.doc, made ?? null, execution);
	return execution.code;
}

function writeJson(
	io: CliIo,
	path: string | null,
	doc: PlanDocument | null,
	made: Extract<MadePlan, { ok: true }> | null,
	execution: Execution | null,
): void {
	const json = {
		plan: doc && {
			id: doc.meta.id,
			path,
			task: doc.meta.task,
			depth: doc.meta.depth,
			run: doc.meta.run,
			agents: doc.meta.agents,
			title: doc.title,
			steps: doc.steps.map((step) => ({
				index: step.index,
				title: step.title,
				agreement: step.agreement,
				done: step.done,
				runId: step.runId,
				stopped: step.stopped,
			})),
		},
		planning: made && { runId: made.runId, exitCode: made.code },
		execution: execution && {
			exitCode: execution.code,
			runs: execution.runs,
			stopped: execution.stopped,
			pending: execution.pending,
		},
	};
	io.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
}

async function isDirectory(path: string): Promise<boolean> {
	try {
		return (await stat(path)).isDirectory();
	} catch {
		return false;
	}
}
