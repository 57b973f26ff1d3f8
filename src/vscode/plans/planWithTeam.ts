import * as vscode from 'vscode';
import { type PlanDepth, planDepths } from '../../contract/plan.js';
import { chooseRunFolder } from '../common/runFolders.js';
import { readPlanDepth } from '../common/settings.js';
import type { RunService } from '../run/runTypes.js';
import type { PlanDocuments, PlanOutcome } from './planDocuments.js';
import { planArgument, planRunRequest } from './planRunRequest.js';

/**
 * "MassGen: Plan with Team": asks for the task (unless given: a string or `{ task, depth }`) and the
 * depth (the `massgen.plan.depth` setting first), runs the team read-only on it (the panel shows the
 * run live) and resolves with the plan document it opened, or why there is none; undefined when
 * the user dismissed a question or the run did not start (the user has been told).
 */
export async function planWithTeam(
	deps: { readonly runs: Pick<RunService, 'start'>; readonly plans: Pick<PlanDocuments, 'outcome'> },
	arg?: unknown,
): Promise<PlanOutcome | undefined> {
	const chosen = await chooseRunFolder(vscode.window.activeTextEditor?.document.uri);
	if (chosen === undefined) return undefined;
	const folder = chosen === 'none' ? undefined : chosen;
	const given = planArgument(arg);
	const task = given.task ?? (await askTask());
	if (task === undefined) return undefined;
	const depth = given.depth ?? (await pickDepth(readPlanDepth(folder?.uri)));
	if (depth === undefined) return undefined;
	const run = await deps.runs.start(
		planRunRequest({ task, depth, ...(folder ? { folder: folder.uri } : {}) }),
	);
	return run && deps.plans.outcome(run.result.runId);
}

function askTask(): Promise<string | undefined> {
	return new Promise((resolve) => {
		const box = vscode.window.createInputBox();
		box.title = vscode.l10n.t('MassGen: Plan with Team');
		box.placeholder = vscode.l10n.t('Describe the task for the team to plan…');
		box.prompt = vscode.l10n.t(
			'Each agent reads the workspace (read-only) and plans the steps; they vote, and the plan opens as a document you can edit.',
		);
		box.ignoreFocusOut = true;
		box.onDidChangeValue(() => (box.validationMessage = undefined));
		box.onDidAccept(() => {
			const task = box.value.trim();
			if (!task) {
				box.validationMessage = vscode.l10n.t('Type a task for the team to plan.');
				return;
			}
			resolve(task);
			box.hide();
		});
		box.onDidHide(() => {
			resolve(undefined);
			box.dispose();
		});
		box.show();
	});
}

const depthWords = (): Record<PlanDepth, string> => ({
	shallow: vscode.l10n.t('High level: 3 to 5 steps'),
	medium: vscode.l10n.t('5 to 10 steps'),
	deep: vscode.l10n.t('Fine-grained: 10 to 20 steps, each small enough to review as one change'),
	dynamic: vscode.l10n.t('As many steps as the task needs, no more'),
});

/** The depth, `first` (the setting's) at the top and picked. */
async function pickDepth(first: PlanDepth): Promise<PlanDepth | undefined> {
	const words = depthWords();
	const items = [first, ...planDepths.filter((depth) => depth !== first)].map((depth) => ({
		label: depth,
		description: depth === first ? vscode.l10n.t('{0} (massgen.plan.depth)', words[depth]) : words[depth],
		depth,
	}));
	const picked = await vscode.window.showQuickPick(items, {
		title: vscode.l10n.t('MassGen: Plan with Team'),
		placeHolder: vscode.l10n.t('How finely should the team break the task down?'),
		ignoreFocusOut: true,
	});
	return picked?.depth;
}
