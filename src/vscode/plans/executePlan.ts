import { join } from 'node:path';
import * as vscode from 'vscode';
import type { PlanRunRecord } from '../../contract/plan.js';
import { errorMessage } from '../../core/util/errorMessage.js';
import type { ExecutionEnd, PlanExecutions, PlanMode } from './planExecutions.js';
import type { PlanFile } from './planText.js';

type PlanEngine = typeof import('./planEngine.js');

/** What Execute Plan returns to a caller in this extension host (the in-host tests): the execution's end. */
export interface ExecutePlanStarted {
	readonly path: string;
	readonly end: Promise<ExecutionEnd>;
}

/**
 * Execute Plan (`massgen.executePlan`): from a plan document's editor title (`arg` its Uri), a plan
 * run's row in the Runs view (`arg` the row: its folder and plan record), or the palette (a pick
 * among the workspace's plans, newest first); `{ uri, mode }` skips both questions. Asks step by
 * step or all steps as one run, starts the execution and returns without waiting for it (it
 * waits for the user's reviews); the end is told in a notification.
 */
export async function executePlan(
	executions: PlanExecutions,
	arg: unknown,
): Promise<ExecutePlanStarted | undefined> {
	// The plan store and parser load at the first Execute Plan, not at activation.
	const engine = await import('./planEngine.js');
	const target = await planTarget(engine, arg);
	if (typeof target === 'string') {
		void vscode.window.showErrorMessage(vscode.l10n.t('MassGen: {0}', target));
		return undefined;
	}
	if (!target) return undefined;
	const { file } = target;
	if (executions.isExecuting(file.uri.fsPath)) {
		void vscode.window.showInformationMessage(
			vscode.l10n.t(
				'MassGen: that plan is executing already; its current step waits for its run or your review.',
			),
		);
		return undefined;
	}
	const mode = target.mode ?? (await pickMode());
	if (!mode) return undefined;
	const end = executions.execute(file, mode);
	void end.then(
		(ended) => report(file, ended),
		(error: unknown) =>
			void vscode.window.showErrorMessage(
				vscode.l10n.t('MassGen: the plan stopped: {0}', errorMessage(error)),
			),
	);
	return { path: file.uri.fsPath, end };
}

type Target = { readonly file: PlanFile; readonly mode?: PlanMode } | string | undefined;

async function planTarget(engine: PlanEngine, arg: unknown): Promise<Target> {
	const { planFileOf, plansDir } = engine;
	const fileTarget = (uri: vscode.Uri): Target => {
		const file = planFileOf(uri);
		return typeof file === 'string' ? file : { file };
	};
	if (arg instanceof vscode.Uri) return fileTarget(arg);
	if (typeof arg === 'object' && arg !== null) {
		const given = arg as { uri?: unknown; mode?: unknown; root?: unknown; turn?: { plan?: PlanRunRecord } };
		const mode = given.mode === 'steps' || given.mode === 'all' ? given.mode : undefined;
		if (given.uri instanceof vscode.Uri || typeof given.uri === 'string') {
			const uri = typeof given.uri === 'string' ? vscode.Uri.file(given.uri) : given.uri;
			const file = planFileOf(uri);
			return typeof file === 'string' ? file : { file, ...(mode ? { mode } : {}) };
		}
		// A Runs view row of a plan's run: its plan document in that run's folder.
		const plan = given.turn?.plan;
		if (typeof given.root === 'string' && plan && /^[\w.-]+$/.test(plan.planId)) {
			return fileTarget(vscode.Uri.file(join(plansDir(given.root), `${plan.planId}.md`)));
		}
	}
	const active = vscode.window.activeTextEditor?.document.uri;
	if (active && typeof planFileOf(active) !== 'string') return fileTarget(active);
	const picked = await pickPlan(engine);
	return picked && fileTarget(picked);
}

/** The workspace's plans, the user's own first, each newest first; undefined when the user backed out or there is none (told). */
async function pickPlan({ listPlans }: PlanEngine): Promise<vscode.Uri | undefined> {
	const items: (vscode.QuickPickItem & { uri: vscode.Uri })[] = [];
	for (const folder of vscode.workspace.workspaceFolders ?? []) {
		for (const plan of await listPlans(folder.uri.fsPath)) {
			if (!plan.doc) continue;
			const done = plan.doc.steps.filter((step) => step.done).length;
			items.push({
				label: plan.doc.title,
				description: vscode.l10n.t('{0} of {1} steps done', done, plan.doc.steps.length),
				// A plan that came with the folder can copy the user's title: it says so.
				detail: [
					vscode.workspace.asRelativePath(plan.path),
					...(plan.madeHere ? [] : [vscode.l10n.t('not made on this machine')]),
				].join(' · '),
				uri: vscode.Uri.file(plan.path),
			});
		}
	}
	if (items.length === 0) {
		void vscode.window.showInformationMessage(
			vscode.l10n.t('MassGen: there is no plan in this workspace yet. Plan with Team makes one.'),
		);
		return undefined;
	}
	// listPlans' order: the user's own plans first (a planted plan's `created` can say any date).
	const picked = await vscode.window.showQuickPick(items, {
		title: vscode.l10n.t('Execute Plan'),
		placeHolder: vscode.l10n.t('Which plan?'),
	});
	return picked?.uri;
}

async function pickMode(): Promise<PlanMode | undefined> {
	const items: (vscode.QuickPickItem & { mode: PlanMode })[] = [
		{
			label: vscode.l10n.t('Step by step'),
			detail: vscode.l10n.t('One run per step; each step is reviewed and accepted before the next starts'),
			mode: 'steps',
		},
		{
			label: vscode.l10n.t('All steps as one run'),
			detail: vscode.l10n.t('One run carries out every open step; its changes are reviewed together'),
			mode: 'all',
		},
	];
	const picked = await vscode.window.showQuickPick(items, {
		title: vscode.l10n.t('Execute Plan'),
		placeHolder: vscode.l10n.t('How should the team carry out the plan?'),
	});
	return picked?.mode;
}

/** The execution's end as a notification, with the plan one click away. */
function report(file: PlanFile, ended: ExecutionEnd): void {
	if (ended.ended === 'busy') return;
	const open = vscode.l10n.t('Open Plan');
	const message =
		ended.ended === 'complete'
			? vscode.l10n.t('MassGen: every step of the plan {0} is done.', file.relPath)
			: vscode.l10n.t(
					'MassGen: the plan stopped at step {0}: {1}. Edit the plan if you like, then Execute Plan continues from that step.',
					ended.step,
					ended.reason,
				);
	const show =
		ended.ended === 'complete' ? vscode.window.showInformationMessage : vscode.window.showWarningMessage;
	void show(message, open).then((choice) => {
		if (choice === open) void vscode.window.showTextDocument(file.uri);
	});
}
