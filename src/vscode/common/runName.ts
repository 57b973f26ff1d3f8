import * as vscode from 'vscode';

/** A question's first line, at most `max` characters ("(no question)" when it has none). */
export function questionLine(text: string, max = 80): string {
	const line = text.trim().split('\n')[0]!.trim() || vscode.l10n.t('(no question)');
	return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/**
 * A run as the user knows it, by its question: its first line, shortened and quoted, as the Runs
 * view names it. A run's id stays in tooltips and the log.
 */
export function runName(question: string, max = 60): string {
	return vscode.l10n.t('“{0}”', questionLine(question, max));
}

/** A run as a notification names it: its question, and its folder when the workspace has several. */
export function runLabel(question: string, folderName?: string): string {
	return folderName ? vscode.l10n.t('{0} in {1}', runName(question), folderName) : runName(question);
}

/**
 * Text shown literally in Markdown (a tooltip, a confirmation): every punctuation mark Markdown acts
 * on is escaped, `<` included (VS Code's `appendText` leaves it, and `<command:…>` is then an
 * autolink that a MarkdownString trusted with that command runs) and `:` (GFM links bare
 * `https://…`).
 */
export function escapeMarkdown(text: string): string {
	return text.replace(/[\\`*_{}[\]()#+\-.!<>|~&:=]/g, '\\$&');
}
