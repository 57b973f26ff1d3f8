import * as vscode from 'vscode';
import { turnStatuses, type RunsFilter, type TurnStatus } from './runsFilter.js';

/** "Filter Runs…": the statuses to show (none picked = all), then the text; undefined when dismissed. */
export async function promptRunsFilter(current: RunsFilter): Promise<RunsFilter | undefined> {
	const items = turnStatuses.map((status) => ({
		label: status,
		status,
		picked: current.statuses.includes(status),
	}));
	const picked = await vscode.window.showQuickPick(items, {
		title: vscode.l10n.t('MassGen: Filter Runs (1/2) — statuses to show; none = all'),
		canPickMany: true,
	});
	if (!picked) return undefined;
	const text = await vscode.window.showInputBox({
		title: vscode.l10n.t('MassGen: Filter Runs (2/2) — text in the question, answer, run id or winner'),
		value: current.text,
		prompt: vscode.l10n.t('Leave empty to match any text.'),
	});
	if (text === undefined) return undefined;
	const statuses: TurnStatus[] = picked.map((item) => item.status);
	return { statuses, text: text.trim() };
}
