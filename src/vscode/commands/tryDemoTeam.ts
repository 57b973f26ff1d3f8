import * as vscode from 'vscode';
import type { RunController } from '../run/runController.js';
import type { FinishedRun } from '../run/runTypes.js';

/**
 * "MassGen: Try the Demo Team" (the walkthrough's "Use the Demo Team", the Team view's demo row):
 * the scripted demo team (`configs/demo.yaml`: no key, no network) answers a sample question in
 * the panel. For this run only: the team settings are left as they are.
 */
export function tryDemoTeam(runs: Pick<RunController, 'start'>): Promise<FinishedRun | undefined> {
	return runs.start({
		question: vscode.l10n.t('How should we document this project?'),
		kind: 'ask',
		preset: 'demo',
	});
}
