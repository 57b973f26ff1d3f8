import * as vscode from 'vscode';
import type { ShownQuestions } from '../common/shownQuestions.js';

/**
 * Opens a link from an answer (a citation) once the user confirms: a model wrote it, so the user
 * sees the whole address first. Our own question, because VS Code's link protection does not ask in
 * a trusted workspace. A notification, like the provider-tools question; dismissed, nothing opens.
 */
export async function openAnswerLink(
	url: string,
	log: { info(message: string): void },
	questions?: ShownQuestions,
): Promise<boolean> {
	const open = vscode.l10n.t('Open Link');
	const copy = vscode.l10n.t('Copy Link');
	const message = vscode.l10n.t('MassGen: open this link from an answer? {0}', url);
	questions?.record('answerLink', message);
	const choice = await vscode.window.showInformationMessage(message, open, copy);
	if (choice === copy) await vscode.env.clipboard.writeText(url);
	if (choice !== open) return false;
	log.info(`panel: opening a link from an answer: ${url}`);
	return vscode.env.openExternal(vscode.Uri.parse(url, true));
}
