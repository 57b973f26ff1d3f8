import * as vscode from 'vscode';
import type { PlanRunRecord } from '../../contract/plan.js';
import { errorMessage } from '../../core/util/errorMessage.js';
import { Disposable } from '../common/lifecycle.js';
import type { FinishedRun, RunService } from '../run/runTypes.js';

/** A plan run's outcome: its document saved (and opened), or why there is none. */
export type PlanOutcome =
	| { readonly runId: string; readonly uri: vscode.Uri; readonly steps: number }
	| { readonly runId: string; readonly reason: string };

/**
 * Turns each finished plan run (Plan with Team, the ask box's Plan toggle, `@massgen /plan`) into
 * its plan document: `planFromRun` (each step marked with how many agents' plans had it), saved
 * as `<folder>/.massgen/plans/<run id>.md` and opened in an editor. A run that ended without a
 * plan (cancelled, failed, no answer with steps in the plan format) is reported instead. Whoever started the run
 * waits for the same outcome (`outcome`).
 */
export class PlanDocuments extends Disposable {
	private readonly _outcomes = new Map<string, Promise<PlanOutcome>>();

	constructor(
		private readonly _deps: {
			readonly runs: Pick<RunService, 'onDidFinishRun'>;
			readonly log: Pick<vscode.LogOutputChannel, 'info' | 'warn'>;
		},
	) {
		super();
		this._register(_deps.runs.onDidFinishRun((run) => this._finished(run)));
	}

	/** The outcome of plan run `runId` once it has finished (undefined: not a plan run of this window). */
	outcome(runId: string): Promise<PlanOutcome> | undefined {
		return this._outcomes.get(runId);
	}

	private _finished(run: FinishedRun): void {
		const record = run.request.plan;
		if (run.request.kind !== 'plan' || record?.kind !== 'planning') return;
		const runId = run.result.runId;
		const outcome = this._save(run, record).then(
			async (saved) => {
				if ('reason' in saved) {
					this._deps.log.info(`plan run ${runId}: no plan (${saved.reason})`);
					if (run.result.status !== 'cancelled') {
						void vscode.window.showWarningMessage(
							vscode.l10n.t('MassGen: the team made no plan: {0}.', saved.reason),
						);
					}
					return saved;
				}
				this._deps.log.info(`plan run ${runId}: ${saved.steps} steps in ${saved.uri.fsPath}`);
				await vscode.window.showTextDocument(saved.uri, { preview: false });
				return saved;
			},
			(error: unknown) => {
				const reason = errorMessage(error);
				this._deps.log.warn(`plan run ${runId}: the plan could not be saved: ${reason}`);
				void vscode.window.showErrorMessage(
					vscode.l10n.t('MassGen: the plan could not be saved: {0}', reason),
				);
				return { runId, reason };
			},
		);
		this._outcomes.set(runId, outcome);
	}

	private async _save(
		run: FinishedRun,
		record: Extract<PlanRunRecord, { kind: 'planning' }>,
	): Promise<PlanOutcome> {
		const { result, folder } = run;
		const runId = result.runId;
		if (result.status === 'cancelled') return { runId, reason: vscode.l10n.t('the run was cancelled') };
		if (result.finalAnswer === null) {
			return { runId, reason: result.error ?? vscode.l10n.t('the run ended without an answer') };
		}
		const [{ planFromRun }, { parsePlanDocument }, { PlanError }, { savePlan }] = await Promise.all([
			import('../../core/plans/planRequests.js'),
			import('../../core/plans/planDocument.js'),
			import('../../core/plans/planError.js'),
			import('../../core/plans/planStore.js'),
		]);
		let text: string;
		try {
			text = planFromRun(result, {
				id: runId,
				task: record.task,
				depth: record.depth,
				run: runId,
				created: result.startedAt ?? new Date().toISOString(),
			});
		} catch (error) {
			// No step in the plan format in any answer: the reason is the core's (English, as the CLI's).
			if (PlanError.is(error)) return { runId, reason: error.message };
			throw error;
		}
		const steps = parsePlanDocument(text, `${runId}.md`).steps.length;
		const path = await savePlan(folder.uri.fsPath, runId, text);
		return { runId, uri: vscode.Uri.file(path), steps };
	}
}
