import * as vscode from 'vscode';
import { type ChangePrompts, windowPrompts } from './changePrompts.js';
import { parseChangeUri } from './changeUri.js';
import { activeChange, activeChangeRun } from './diffTabs.js';
import type { PendingChangeSet } from './pendingChangeSet.js';
import type { PendingSets } from './pendingSets.js';
import { chooseRun, runArgOf } from './runChoice.js';

/**
 * The pending set a change command is for (`chooseRun`): the run its argument names (a diff's
 * URI, a notification's link, `{ runId }`), else the active change diff's or multi-file view's,
 * else the only one, else the user picks among them by name. Undefined when there is none (the
 * user is told) or the pick was cancelled.
 */
export async function setForCommand(
	arg: unknown,
	sets: PendingSets,
	prompts: ChangePrompts,
	log: vscode.LogOutputChannel,
): Promise<PendingChangeSet | undefined> {
	const fromUri = arg instanceof vscode.Uri ? parseChangeUri(arg)?.runId : undefined;
	const choice = chooseRun(fromUri ?? runArgOf(arg), activeChangeRun(), sets.runIds());
	if ('none' in choice) {
		void vscode.window.showInformationMessage(vscode.l10n.t('MassGen: no changes are waiting for review.'));
		return undefined;
	}
	if ('gone' in choice) {
		log.info(`change review: run ${choice.gone} has no pending changes; nothing was done`);
		void vscode.window.showInformationMessage(
			vscode.l10n.t('MassGen: that run’s changes are no longer waiting for review; nothing was done.'),
		);
		return undefined;
	}
	if ('runId' in choice) return sets.get(choice.runId);
	const items = choice.ask.map((runId) => {
		const set = sets.get(runId)!;
		const count = set.files().length;
		const winner = set.set.winner?.agentId ?? vscode.l10n.t('the team');
		return {
			runId,
			label: set.name,
			description:
				count === 1
					? vscode.l10n.t('1 file changed by {0}', winner)
					: vscode.l10n.t('{0} files changed by {1}', count, winner),
		};
	});
	const pick = prompts.pickRun ?? windowPrompts.pickRun!;
	const picked = await pick(items, vscode.l10n.t('Several runs’ changes are waiting: which run?'));
	return picked === undefined ? undefined : sets.get(picked);
}

/** The file of `pending` a file command is for: its diff's (the argument, the active editor), a path given, else a pick. */
export async function fileForCommand(
	pending: PendingChangeSet,
	arg: unknown,
	question: string,
): Promise<string | undefined> {
	const fromUri = arg instanceof vscode.Uri ? parseChangeUri(arg) : undefined;
	const given = fromUri ?? activeChange();
	if (given && given.runId === pending.runId && pending.file(given.path)) return given.path;
	if (typeof arg === 'string' && pending.file(arg)) return arg;
	const picked = await vscode.window.showQuickPick(
		pending.files().map((file) => ({ label: file.path, description: file.kind })),
		{ placeHolder: question },
	);
	return picked?.label;
}
