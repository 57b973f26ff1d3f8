import * as vscode from 'vscode';
import { runName } from '../common/runName.js';
import type { RunController } from '../run/runController.js';

/**
 * Cancel Run: the run `arg` names (a ticket or run id: a Runs view row), else the only one going,
 * else the one the user picks by its question — never silently the newest.
 */
export async function cancelRun(
	runs: Pick<RunController, 'active' | 'cancel'>,
	arg?: unknown,
): Promise<boolean> {
	const active = runs.active();
	if (typeof arg === 'string' && active.some((run) => run.ticket === arg || run.runId === arg)) {
		return runs.cancel(arg);
	}
	if (active.length === 0) {
		void vscode.window.showInformationMessage(vscode.l10n.t('MassGen: no run is active.'));
		return false;
	}
	if (active.length === 1) return runs.cancel(active[0]!.ticket);
	const picked = await vscode.window.showQuickPick(
		active.map((run) => ({
			label: runName(run.request.question),
			description: run.phase === 'queued' ? vscode.l10n.t('queued') : run.folder.name,
			ticket: run.ticket,
		})),
		{ placeHolder: vscode.l10n.t('Which run should be cancelled?') },
	);
	return picked ? runs.cancel(picked.ticket) : false;
}
