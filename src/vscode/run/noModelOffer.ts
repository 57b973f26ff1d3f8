import * as vscode from 'vscode';
import { commandIds } from '../common/commandIds.js';
import type { ShownQuestions } from '../common/shownQuestions.js';

export interface NoModelOfferDeps {
	/** VS Code's chat models (Copilot's, once it is signed in); "Use Copilot" is offered only when there are some. */
	readonly lmModels: () => Promise<readonly unknown[]>;
	/** Where the offer is recorded when shown (the in-host tests read it). */
	readonly questions?: ShownQuestions;
	readonly log: vscode.LogOutputChannel;
}

/** What the user chose: run the question on the demo team, or as asked (a model is there now). */
export type NoModelChoice = 'demo' | 'retry';

/** Buttons, looked up in the display language when shown. */
const button = {
	get demo(): string {
		return vscode.l10n.t('Try the Demo Team');
	},
	get copilot(): string {
		return vscode.l10n.t('Use Copilot');
	},
	get setApiKey(): string {
		return vscode.l10n.t('Set API Key');
	},
};

/** The reason the question did not run yet (the panel's ask box shows it under the question it gives back). */
export function noModelReason(): string {
	return vscode.l10n.t('no model yet. Choose one in the notification and the question runs.');
}

/**
 * The first run with nothing set up (no key, no VS Code model, no local server, no team config):
 * one short notification instead of every provider's missing key, whose buttons keep the question
 * and run it — on the scripted demo team, on Copilot's models (offered only when VS Code has
 * some: they may have come since the team was resolved), or once a key is stored. Who was left
 * out and why is in the log. Returns at once; `run` is called with the choice.
 */
export function offerNoModel(deps: NoModelOfferDeps, run: (choice: NoModelChoice) => void): void {
	void (async () => {
		const models = await deps.lmModels().catch((): readonly unknown[] => []);
		const buttons = [button.demo, ...(models.length > 0 ? [button.copilot] : []), button.setApiKey];
		const message = vscode.l10n.t('MassGen: No model yet. Pick one and your question runs.');
		deps.questions?.record('noModel', message);
		const choice = await vscode.window.showInformationMessage(message, ...buttons);
		if (choice === button.demo) return run('demo');
		if (choice === button.copilot) return run('retry');
		if (choice !== button.setApiKey) {
			deps.log.info('no model yet: the offer was dismissed; the question did not run');
			return;
		}
		const stored = await vscode.commands.executeCommand<string | undefined>(commandIds.setApiKey);
		if (stored) run('retry');
		else deps.log.info('no model yet: no key was stored; the question did not run');
	})().catch((error: unknown) => deps.log.error(`no model yet: ${String(error)}`));
}
