import * as vscode from 'vscode';
import { MAX_STEER_CHARS } from '../../protocol/steerMessage.js';
import { runName } from '../common/runName.js';
import type { RunController } from '../run/runController.js';
import type { ActiveRunInfo } from '../run/runTypes.js';

type Runs = Pick<RunController, 'active' | 'steer' | 'finishNow'>;

/**
 * Send Message to Team: the run `arg` names (a ticket or run id), else the only one running, else
 * the one the user picks; then to whom (every agent, or one), the message, and whether the agents'
 * votes stand. The run's refusal is shown with its reason.
 */
export async function sendMessageToTeam(runs: Runs, arg?: unknown): Promise<boolean> {
	const run = await pickRun(runs, arg, vscode.l10n.t('Which run should get the message?'));
	if (!run) return false;
	const agents = run.state.agentOrder.filter((id) => run.state.agents[id]?.state !== 'killed');
	const everyone = { label: vscode.l10n.t('All agents'), agentId: undefined };
	const target =
		agents.length > 1
			? await vscode.window.showQuickPick(
					[everyone, ...agents.map((agentId) => ({ label: agentId, agentId }))],
					{
						placeHolder: vscode.l10n.t('To whom?'),
					},
				)
			: everyone;
	if (!target) return false;
	const text = await vscode.window.showInputBox({
		title: vscode.l10n.t('Message to the team of {0}', runName(run.request.question)),
		prompt: vscode.l10n.t('Each agent reads it at its next model call.'),
		validateInput: (value) =>
			value.trim() === ''
				? vscode.l10n.t('Type a message.')
				: value.length > MAX_STEER_CHARS
					? vscode.l10n.t('At most {0} characters.', MAX_STEER_CHARS)
					: undefined,
	});
	if (text === undefined) return false;
	const withdraw = vscode.l10n.t('Send: they vote again');
	const note = vscode.l10n.t('Send as a note: votes stand');
	const how = await vscode.window.showQuickPick([withdraw, note], {
		placeHolder: vscode.l10n.t('Should the agents it reaches vote again?'),
	});
	if (!how) return false;
	const outcome = runs.steer(run.runId!, {
		text: text.trim(),
		noteOnly: how === note,
		...(target.agentId === undefined ? {} : { agentId: target.agentId }),
	});
	if (!outcome.ok) {
		void vscode.window.showWarningMessage(vscode.l10n.t('MassGen: message not sent: {0}', outcome.reason));
		return false;
	}
	vscode.window.setStatusBarMessage(
		vscode.l10n.t('MassGen: message sent to {0}', outcome.agents.join(', ')),
		5_000,
	);
	return true;
}

/** Finish Now: the run `arg` names, else the only one running, else the one the user picks. */
export async function finishNow(runs: Runs, arg?: unknown): Promise<boolean> {
	const run = await pickRun(runs, arg, vscode.l10n.t('Which run should finish now?'));
	if (!run) return false;
	const outcome = runs.finishNow(run.runId!);
	if (!outcome.ok) {
		void vscode.window.showWarningMessage(vscode.l10n.t('MassGen: cannot finish now: {0}', outcome.reason));
	}
	return outcome.ok;
}

/** A running run (one with a run id: a queued one has no team to talk to yet). */
async function pickRun(runs: Runs, arg: unknown, placeHolder: string): Promise<ActiveRunInfo | undefined> {
	const running = runs.active().filter((run) => run.runId !== undefined);
	if (typeof arg === 'string') {
		const named = running.find((run) => run.ticket === arg || run.runId === arg);
		if (named) return named;
	}
	if (running.length === 0) {
		void vscode.window.showInformationMessage(vscode.l10n.t('MassGen: no run is going.'));
		return undefined;
	}
	if (running.length === 1) return running[0];
	const picked = await vscode.window.showQuickPick(
		running.map((run) => ({ label: runName(run.request.question), description: run.folder.name, run })),
		{ placeHolder },
	);
	return picked?.run;
}
