/**
 * `massgen plan --execute REF`: the plan as it is now, one step per run (`stepRequest`) in the
 * document's order, each run following the plan's last one (one session). The file is read again
 * before each step and before each mark, so edits made meanwhile count and are kept (`markStep`
 * changes only its step's lines).
 *
 * Without `--apply` nothing is written to the workspace: a step starts from the earlier steps'
 * pending proposal (`startFrom`), is marked with its run (proposed, not ticked), and a later
 * `--execute` continues after the proposed steps. With `--apply` each step's change set is written
 * as `run --apply` writes it (`applyWinner`), then the step is ticked. A step whose run fails,
 * times out, is cancelled, gives no answer or whose changes cannot be written stops execution,
 * with the reason in the plan file under the step.
 */
import type { RunStatus } from '../../contract/runEvents.js';
import { runDirOf, runFile } from '../../contract/runLayout.js';
import type { ProposalFile } from '../../contract/revision.js';
import type { RunResult } from '../../contract/runResult.js';
import { markStep, type StepMark } from '../../core/plans/markStep.js';
import type { PlanDocument, PlanStep } from '../../core/plans/planDocument.js';
import { PlanError } from '../../core/plans/planError.js';
import { allStepsRequest, lastPlanRun, stepRequest } from '../../core/plans/planRequests.js';
import { planRelPath, resolvePlan, writePlanText } from '../../core/plans/planStore.js';
import { readRunResult } from '../../core/runStore/readResult.js';
import { SessionError } from '../../core/sessions/historyOf.js';
import { pendingProposal } from '../../core/sessions/pendingProposal.js';
import { applyWinner } from '../applyWinner.js';
import { secretWriteConsent } from '../secretWritePrompt.js';
import { shellWord } from '../shellWord.js';
import type { PlanArgs } from './planArgs.js';
import { planExit, statusExit, type PlanSession } from './planSession.js';

/** One run of the execution, as `--json` reports it. */
export interface StepRunReport {
	/** The steps it carried out (one, or every remaining one for `--all-in-one`). */
	readonly steps: readonly number[];
	readonly runId: string;
	readonly status: RunStatus;
	readonly changes: number;
	readonly outcome: 'done' | 'proposed' | 'stopped';
	readonly stopped?: string;
}

export interface Execution {
	readonly code: number;
	/** The plan file and its document after the last mark (null: it could not be read). */
	readonly path: string | null;
	readonly doc: PlanDocument | null;
	readonly runs: readonly StepRunReport[];
	readonly stopped: { readonly step: number; readonly reason: string } | null;
	/** Without `--apply`: the run whose change set holds every proposed step's changes. */
	readonly pending: { readonly runId: string; readonly patch: string; readonly files: number } | null;
}

type Options = NonNullable<PlanArgs['execute']>;
type ReadPlan = Awaited<ReturnType<typeof resolvePlan>>;

export async function executePlan(session: PlanSession, ref: string, options: Options): Promise<Execution> {
	const { root, say } = session;
	const runs: StepRunReport[] = [];
	let plan: ReadPlan;
	try {
		plan = await resolvePlan(root, ref, session.io.env);
	} catch (error) {
		if (!PlanError.is(error)) throw error;
		say(error.message);
		return { code: planExit.usageOrPlan, path: null, doc: null, runs, stopped: null, pending: null };
	}
	const path = plan.path;
	const relPath = planRelPath(root, path);
	// A plan that came with the folder: its runs are not this machine's to follow up on.
	let previous = plan.madeHere ? lastPlanRun(plan.doc, undefined) : undefined;
	if (!plan.madeHere) say(`${relPath} was not made on this machine: its steps run as a new session`);
	const end = (code: number, stopped: Execution['stopped'], pending: Execution['pending'] = null) => ({
		code,
		path,
		doc: plan.doc,
		runs,
		stopped,
		pending,
	});
	for (;;) {
		// One run for every step not ticked (`allStepsRequest`) redoes proposed ones too: nothing is carried.
		const pick = await pickStep(session, plan.doc, options.apply || options.allInOne);
		const target = pick.target;
		if (!target) {
			const left = plan.doc.steps.filter((step) => !step.done).length;
			say(
				left === 0
					? `every step of ${relPath} is done`
					: `every step of ${relPath} is done or proposed (nothing written: --apply writes them)`,
			);
			return end(planExit.done, null, pick.carried ? await pendingOf(root, pick.carried.fromRunId) : null);
		}
		const of = plan.doc.steps.length;
		const remaining = plan.doc.steps.filter((step) => !step.done);
		const request = options.allInOne
			? allStepsRequest(plan.doc, relPath)
			: stepRequest(plan.doc, relPath, target.index);
		say(
			options.allInOne
				? `all ${remaining.length} remaining step(s) of ${relPath} as one run`
				: `step ${target.index} of ${of}: ${target.title}`,
		);
		const startFrom = !options.allInOne && pick.carried?.files.length ? pick.carried : undefined;
		const ran = await session.run({
			question: request.question,
			attachments: request.attachments,
			plan: request.plan,
			...(previous ? { followUp: { from: previous } } : {}),
			...(startFrom ? { startFrom } : {}),
		});
		if (!ran.ok) return end(ran.code, null);
		const { outcome } = ran;
		const { result } = outcome;
		previous = result.runId;
		const steps = options.allInOne ? remaining : [target];
		if (!session.command.json && result.finalAnswer !== null) {
			const heading = options.allInOne
				? `All ${remaining.length} remaining steps`
				: `Step ${target.index} of ${of}: ${target.title}`;
			session.io.stdout.write(`## ${heading}\n\n${result.finalAnswer.trimEnd()}\n\n`);
		}
		let stop = stopOf(result);
		if (!stop && options.apply && result.changes.length > 0) {
			const consent = secretWriteConsent({
				output: session.io.stderr,
				input: session.interactive ? session.io.stdin : undefined,
				yes: session.command.approvals === 'yes',
			});
			if (!(await applyWinner(root, outcome, session.io.stderr, consent, session.io.signal))) {
				const cancelled = session.io.signal.aborted;
				stop = {
					reason: `its changes were not written (run ${result.runId}: see changes.patch in its run log)`,
					code: cancelled ? planExit.cancelled : planExit.failed,
				};
			}
		}
		const reason = stop ? session.redact(stop.reason) : undefined;
		const mark: StepMark = reason
			? { stopped: reason, runId: result.runId }
			: options.apply
				? { done: true, runId: result.runId }
				: { runId: result.runId };
		// A stop is noted under the step it happened on; a run that did all steps marks each.
		const marked = await markSteps(session, path, reason ? [steps[0]!] : steps, mark);
		runs.push({
			steps: steps.map((step) => step.index),
			runId: result.runId,
			status: result.status,
			changes: result.changes.length,
			outcome: reason ? 'stopped' : options.apply ? 'done' : 'proposed',
			...(reason ? { stopped: reason } : {}),
		});
		if (!marked.ok) return end(planExit.failed, null);
		plan = marked.plan;
		if (stop && reason) {
			say(`step ${target.index} stopped: ${reason}`);
			say(`the plan says why under the step; edit it if needed, then run --execute again to continue`);
			return end(stop.code, { step: target.index, reason });
		}
		if (options.allInOne) {
			return end(planExit.done, null, options.apply ? null : await pendingOf(root, result.runId));
		}
	}
}

/**
 * The step to run: the first not ticked, except (without `--apply`) steps an earlier execution
 * proposed (marked with a run, not stopped): their proposal is carried into the next step.
 * `fromDisk`: every step not ticked counts (with `--apply`, and for `--all-in-one`).
 */
async function pickStep(
	session: PlanSession,
	doc: PlanDocument,
	fromDisk: boolean,
): Promise<{ target?: PlanStep; carried?: { fromRunId: string; files: readonly ProposalFile[] } }> {
	let carried: { fromRunId: string; files: readonly ProposalFile[] } | undefined;
	for (const step of doc.steps) {
		if (step.done) continue;
		if (fromDisk || step.runId === null || step.stopped !== null) {
			return { target: step, ...(carried ? { carried } : {}) };
		}
		const proposal = await proposalOf(session.root, step.runId);
		if ('unreadable' in proposal) {
			session.say(`step ${step.index}'s run ${step.runId}: ${proposal.unreadable}: the step runs again`);
			return { target: step, ...(carried ? { carried } : {}) };
		}
		if (proposal.files) carried = { fromRunId: step.runId, files: proposal.files };
	}
	return carried ? { carried } : {};
}

/** A proposed step's pending files; `files` absent when its run changed nothing. */
async function proposalOf(
	root: string,
	runId: string,
): Promise<{ readonly files?: readonly ProposalFile[] } | { readonly unreadable: string }> {
	const read = await readRunResult(runDirOf(root, runId), runId);
	if (read.ok && read.result.changes.length === 0) return {};
	try {
		return { files: (await pendingProposal(root, runId)).files };
	} catch (error) {
		if (SessionError.is(error)) return { unreadable: error.message };
		throw error;
	}
}

async function pendingOf(root: string, runId: string): Promise<Execution['pending']> {
	const read = await readRunResult(runDirOf(root, runId), runId);
	if (!read.ok || read.result.changes.length === 0) return null;
	return { runId, patch: runFile(runDirOf(root, runId), 'patch'), files: read.result.changes.length };
}

/** Why a step's run stops the execution, with the exit code; undefined: it carried the step out. */
function stopOf(result: RunResult): { reason: string; code: number } | undefined {
	const why = result.error ?? result.budget?.reason;
	const oneLine = (text: string) => {
		const line = text.replace(/\s+/g, ' ').trim();
		return line.length > 300 ? `${line.slice(0, 300)}…` : line;
	};
	switch (result.status) {
		case 'failed':
			return { reason: oneLine(`the run failed${why ? `: ${why}` : ''}`), code: statusExit.failed };
		case 'timeout':
			return { reason: 'the run timed out', code: statusExit.timeout };
		case 'cancelled':
			return { reason: 'the run was cancelled', code: statusExit.cancelled };
		case 'completed':
			return result.finalAnswer === null
				? {
						reason: oneLine(`the run ended without an answer${why ? `: ${why}` : ''}`),
						code: planExit.failed,
					}
				: undefined;
	}
}

/**
 * Marks each step in the file as it is now (found by its number and title, else by its title
 * alone), then reads it back; not ok when the file no longer has the step or cannot be written.
 */
async function markSteps(
	session: PlanSession,
	path: string,
	steps: readonly PlanStep[],
	mark: StepMark,
): Promise<{ ok: true; plan: ReadPlan } | { ok: false }> {
	try {
		let now = await resolvePlan(session.root, path, session.io.env);
		for (const step of steps) {
			const same =
				now.doc.steps.find((s) => s.index === step.index && s.title === step.title) ??
				unique(now.doc.steps.filter((s) => s.title === step.title));
			if (!same) {
				session.say(`the plan changed while step ${step.index} ran and no longer has it: not marked`);
				return { ok: false };
			}
			await writePlanText(path, markStep(now.text, same.index, mark));
			now = await resolvePlan(session.root, path, session.io.env);
		}
		return { ok: true, plan: now };
	} catch (error) {
		if (!PlanError.is(error)) throw error;
		session.say(error.message);
		return { ok: false };
	}
}

function unique<T>(items: readonly T[]): T | undefined {
	return items.length === 1 ? items[0] : undefined;
}

/** How to review and write a pending proposal: nothing here writes it. */
export function pendingHint(root: string, pending: NonNullable<Execution['pending']>): string[] {
	return [
		`${pending.files} proposed change(s), nothing written: ${pending.patch}`,
		`review: massgen show ${pending.runId} --workspace ${shellWord(root)}`,
		`write them: cd ${shellWord(root)} && git apply ${shellWord(pending.patch)} (or the editor's Runs view, this run, Review Changes)`,
	];
}
