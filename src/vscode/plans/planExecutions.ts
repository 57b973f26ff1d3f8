import { existsSync } from 'node:fs';
import * as vscode from 'vscode';
import { runDirOf } from '../../contract/runLayout.js';
import { isSafeRunId } from '../../contract/runId.js';
import type { PlanDocument, PlanStep } from '../../core/plans/planDocument.js';
import type { StepMark } from '../../core/plans/markStep.js';
import type { StepRequest } from '../../core/plans/planRequests.js';
import type { PlanProgressView, PlanStepProgress, PlanStepState } from '../../protocol/planProgress.js';
import { errorMessage } from '../../core/util/errorMessage.js';
import { Disposable } from '../common/lifecycle.js';
import type { RunStarter } from '../run/runStarter.js';
import type { ChangeSetChange, FinishedRun } from '../run/runTypes.js';
import type { PlanProgress } from './planProgress.js';
import type { PlanFile } from './planText.js';

/** Step by step (each step's change set reviewed before the next starts), or every open step as one run. */
export type PlanMode = 'steps' | 'all';

/** How an execution ended: every step done, stopped at a step (with the reason), or not started. */
export type ExecutionEnd =
	| { readonly ended: 'complete'; readonly steps: number }
	| {
			readonly ended: 'stopped';
			readonly step: number;
			readonly reason: string;
			readonly runId: string | null;
	  }
	| { readonly ended: 'busy' };

export interface PlanExecutionsDeps {
	readonly runs: RunStarter;
	readonly changes: { readonly onDidChangeChangeSet: vscode.Event<ChangeSetChange> };
	readonly progress: PlanProgress;
	readonly log: vscode.LogOutputChannel;
	/** Masks the run's secrets in what the document and the notification say (a failed run's error). */
	readonly redact?: (text: string) => string;
	/** Where the plan store looks up this machine's runs (default `process.env`). */
	readonly env?: NodeJS.ProcessEnv;
}

/** One step's end as the document records it, and what the notification says. */
type StepEnd = { readonly mark: StepMark; readonly stopped?: string; readonly note?: string };

/**
 * This window's plan executions (docs/editor.md, Execute Plan), one at a time per plan document:
 * reads the document as it is now before each step (the user's edits between steps are what the
 * next step sees), runs the first unticked step as a follow-up of the plan's previous run (one
 * session), waits for the user's review of its change set, ticks it (accepted in whole or part) or
 * marks it stopped with the reason (rejected, failed, cancelled) and stops. The panel reads the
 * progress from `PlanProgress`.
 */
export class PlanExecutions extends Disposable {
	private readonly _going = new Set<string>();
	private readonly _abort = new AbortController();
	private _loaded: Promise<typeof import('./planEngine.js')> | undefined;

	constructor(private readonly _deps: PlanExecutionsDeps) {
		super();
		this._register({ dispose: () => this._abort.abort() });
	}

	/** Whether the plan at `path` is executing in this window. */
	isExecuting(path: string): boolean {
		return this._going.has(path);
	}

	/** Executes the plan until it is done or a step stops; resolves then. */
	async execute(file: PlanFile, mode: PlanMode): Promise<ExecutionEnd> {
		const key = file.uri.fsPath;
		if (this._going.has(key)) return { ended: 'busy' };
		this._going.add(key);
		try {
			return mode === 'all' ? await this._all(file) : await this._steps(file);
		} finally {
			this._going.delete(key);
		}
	}

	private async _steps(file: PlanFile): Promise<ExecutionEnd> {
		const { readPlan, nextStep, stepRequest } = await this._engine();
		const runIds: string[] = [];
		let previous: string | undefined;
		let doneHere = 0;
		for (;;) {
			const { doc } = await readPlan(file, this._env);
			const step = nextStep(doc);
			if (!step) {
				this._show(file, doc, runIds, null);
				return { ended: 'complete', steps: doneHere };
			}
			this._show(file, doc, runIds, { index: step.index, state: 'running' });
			const request = stepRequest(doc, file.relPath, step.index);
			const started = await this._run(file, doc, request, previous);
			if ('reason' in started) {
				this._show(file, doc, runIds, { index: step.index, state: 'stopped', note: started.reason });
				return { ended: 'stopped', step: step.index, reason: started.reason, runId: null };
			}
			runIds.push(started.run.result.runId);
			this._show(file, doc, runIds, { index: step.index, state: 'review' });
			const end = await this._stepEnd(file, started.run);
			if (end.mark.runId !== started.run.result.runId) runIds.push(end.mark.runId);
			previous = end.mark.runId;
			const marked = await this._mark(file, step, end.mark);
			const after = (await readPlan(file, this._env)).doc;
			const again = nextStep(after);
			if (end.stopped === undefined && !marked && again?.title === step.title) {
				// Not ticked: running on would run the same step again.
				const reason = vscode.l10n.t('the plan could not be marked; it is as it was');
				this._show(file, after, runIds, null, { index: step.index, note: reason });
				return { ended: 'stopped', step: step.index, reason, runId: end.mark.runId };
			}
			if (end.stopped !== undefined) {
				this._show(file, after, runIds, null, { index: step.index, note: end.stopped });
				return { ended: 'stopped', step: step.index, reason: end.stopped, runId: end.mark.runId };
			}
			doneHere += 1;
			this._show(file, after, runIds, null, end.note ? { index: step.index, note: end.note } : undefined);
		}
	}

	/** Every open step as one run: accepted ticks them all with its run id; otherwise the first open step is stopped. */
	private async _all(file: PlanFile): Promise<ExecutionEnd> {
		const { readPlan, allStepsRequest } = await this._engine();
		const { doc } = await readPlan(file, this._env);
		const open = doc.steps.filter((step) => !step.done);
		const first = open[0];
		if (!first) {
			this._show(file, doc, [], null);
			return { ended: 'complete', steps: 0 };
		}
		const runIds: string[] = [];
		const request = allStepsRequest(doc, file.relPath);
		this._show(file, doc, runIds, { index: first.index, state: 'running' }, undefined, true);
		const started = await this._run(file, doc, request, undefined);
		if ('reason' in started) {
			this._show(
				file,
				doc,
				runIds,
				{ index: first.index, state: 'stopped', note: started.reason },
				undefined,
				true,
			);
			return { ended: 'stopped', step: first.index, reason: started.reason, runId: null };
		}
		runIds.push(started.run.result.runId);
		this._show(file, doc, runIds, { index: first.index, state: 'review' }, undefined, true);
		const end = await this._stepEnd(file, started.run);
		if (end.stopped !== undefined) {
			await this._mark(file, first, end.mark);
			const after = (await readPlan(file, this._env)).doc;
			this._show(file, after, runIds, null, { index: first.index, note: end.stopped }, true);
			return { ended: 'stopped', step: first.index, reason: end.stopped, runId: end.mark.runId };
		}
		for (const step of open) await this._mark(file, step, end.mark);
		const after = (await readPlan(file, this._env)).doc;
		this._show(
			file,
			after,
			runIds,
			null,
			end.note ? { index: first.index, note: end.note } : undefined,
			true,
		);
		return { ended: 'complete', steps: open.length };
	}

	/**
	 * Starts a plan run as a follow-up of the plan's last run, so the plan and its steps are one
	 * session: within this execution the last step's run; else the run the document names last
	 * before the step (`lastPlanRun`: a step stopped before ends the session line, so continuing
	 * after it keeps to the line, its rejected answer in the history). A run that is gone
	 * (retention, another machine's plan) starts a new session rather than refusing the step.
	 */
	private async _run(
		file: PlanFile,
		doc: PlanDocument,
		request: StepRequest,
		previous: string | undefined,
	): Promise<{ run: FinishedRun } | { reason: string }> {
		const root = file.folder.uri.fsPath;
		const { lastPlanRun } = await this._engine();
		const last = previous ?? lastPlanRun(doc, request.plan.kind === 'step' ? request.plan.step : undefined);
		const from = isSafeRunId(last) && existsSync(runDirOf(root, last)) ? last : undefined;
		this._deps.log.info(
			`plan ${doc.meta.id}: starting ${request.plan.kind === 'step' ? `step ${request.plan.step} of ${request.plan.of}` : 'all steps'}${from ? ` after run ${from}` : ''}`,
		);
		const outcome = await this._deps.runs.tryStart({
			kind: 'ask',
			question: request.question,
			attachments: request.attachments,
			plan: request.plan,
			folder: file.folder.uri,
			...(from ? { continueFrom: from } : {}),
		});
		return 'run' in outcome ? outcome : { reason: outcome.reason };
	}

	/** What became of a step's run: its status, then (with changes) the user's review of them. */
	private async _stepEnd(file: PlanFile, run: FinishedRun): Promise<StepEnd> {
		const { result } = run;
		const runId = result.runId;
		if (result.status === 'cancelled') return stopped(runId, vscode.l10n.t('the run was cancelled'));
		if (result.status === 'failed') {
			return stopped(
				runId,
				vscode.l10n.t('the run failed: {0}', this._redact(result.error ?? vscode.l10n.t('no reason given'))),
			);
		}
		if (result.changes.length === 0) {
			if (result.status === 'timeout') {
				return stopped(runId, vscode.l10n.t('the run timed out without changes'));
			}
			return { mark: { done: true, runId }, note: vscode.l10n.t('changed nothing') };
		}
		const { stepDecision } = await this._engine();
		const decision = await stepDecision(
			this._deps.changes,
			file.folder.uri.fsPath,
			runId,
			this._abort.signal,
		);
		switch (decision.outcome) {
			case 'accepted':
				return { mark: { done: true, runId: decision.runId } };
			case 'partly-accepted':
				return { mark: { done: true, runId: decision.runId }, note: vscode.l10n.t('partly accepted') };
			case 'none':
				return { mark: { done: true, runId: decision.runId }, note: vscode.l10n.t('changed nothing') };
			case 'rejected':
				return stopped(decision.runId, vscode.l10n.t('its changes were rejected'));
			case 'undecided':
				return stopped(decision.runId, vscode.l10n.t('its changes were neither accepted nor rejected'));
		}
	}

	/** Marks the step in the document as it is now; false when it could not (logged). */
	private async _mark(file: PlanFile, step: PlanStep, mark: StepMark): Promise<boolean> {
		const { markPlanStep } = await this._engine();
		const marked = await markPlanStep(file, step, mark, this._env).catch((error: unknown) => {
			this._deps.log.error(`plan ${file.relPath}: cannot mark step ${step.index}: ${errorMessage(error)}`);
			return false;
		});
		if (!marked) {
			this._deps.log.warn(`plan ${file.relPath}: step ${step.index} (${step.title}) was not marked`);
		}
		return marked;
	}

	/** The plan's progress for the panel: each step's state from the document, the current one as given. */
	private _show(
		file: PlanFile,
		doc: PlanDocument,
		runIds: readonly string[],
		current: { index: number; state: PlanStepState; note?: string } | null,
		last?: { index: number; note: string },
		allAtOnce = false,
	): void {
		const steps = doc.steps.map((step): PlanStepProgress => {
			if (current && step.index === current.index) {
				return {
					index: step.index,
					title: step.title,
					state: current.state,
					...(current.note ? { note: current.note } : {}),
				};
			}
			const state: PlanStepState = step.done ? 'done' : step.stopped !== null ? 'stopped' : 'todo';
			const note = last?.index === step.index ? last.note : (step.stopped ?? undefined);
			return { index: step.index, title: step.title, state, ...(note ? { note } : {}) };
		});
		const view: PlanProgressView = {
			planId: doc.meta.id,
			title: doc.title,
			current: current?.state === 'running' || current?.state === 'review' ? current.index : null,
			steps,
			runIds: [...runIds],
			allAtOnce,
		};
		this._deps.progress.set(file.uri.fsPath, view);
	}

	private _engine(): Promise<typeof import('./planEngine.js')> {
		return (this._loaded ??= import('./planEngine.js'));
	}

	private _redact(text: string): string {
		return this._deps.redact?.(text) ?? text;
	}

	private get _env(): NodeJS.ProcessEnv {
		return this._deps.env ?? process.env;
	}
}

function stopped(runId: string, reason: string): StepEnd {
	return { mark: { stopped: reason, runId }, stopped: reason };
}
