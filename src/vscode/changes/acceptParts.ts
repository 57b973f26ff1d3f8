import { basename } from 'node:path';
import * as vscode from 'vscode';
import type { AcceptResult } from './acceptPending.js';

/** What an applied accept did besides writing: files merged with the user's edits, conflict markers, files left to review. */
export function acceptParts(result: AcceptResult): string[] {
	const names = (paths: readonly string[]) => paths.map((path) => basename(path)).join(', ');
	const parts: string[] = [];
	if (result.merged.length) parts.push(vscode.l10n.t('merged with your edits: {0}', names(result.merged)));
	if (result.marked.length) {
		parts.push(vscode.l10n.t('resolve the conflict markers in {0}', names(result.marked)));
	}
	if (result.skipped.length) parts.push(vscode.l10n.t('{0} left to review', result.skipped.length));
	return parts;
}
