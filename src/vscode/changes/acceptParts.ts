import { basename } from 'node:path';
import * as vscode from 'vscode';
import type { AcceptResult } from './acceptPending.js';

type Log = Pick<vscode.LogOutputChannel, 'info' | 'warn'>;

/** What an applied accept did besides writing: files merged with the user's edits, conflict markers, files left to review. */
function acceptParts(result: AcceptResult): string[] {
	const names = (paths: readonly string[]) => paths.map((path) => basename(path)).join(', ');
	const parts: string[] = [];
	if (result.merged.length) parts.push(vscode.l10n.t('merged with your edits: {0}', names(result.merged)));
	if (result.marked.length) {
		parts.push(vscode.l10n.t('resolve the conflict markers in {0}', names(result.marked)));
	}
	if (result.skipped.length) parts.push(vscode.l10n.t('{0} left to review', result.skipped.length));
	return parts;
}

/** Says why an accept wrote nothing (backed out, refused by the editor, unsafe targets); false: it wrote. */
export function reportNotWritten(result: AcceptResult, runId: string, log: Log): boolean {
	if (result.status === 'cancelled' || result.status === 'refused') {
		log.info(`change review: accept ${result.status}; nothing was written`);
		if (result.status === 'refused') {
			void vscode.window.showInformationMessage(vscode.l10n.t('MassGen: the changes were not applied.'));
		}
		return true;
	}
	if (result.status === 'unsafe') {
		const reasons = result.unsafe.map((refusal) => refusal.reason);
		log.warn(`change review: run ${runId}: nothing was written: ${reasons.join('; ')}`);
		void vscode.window.showErrorMessage(
			vscode.l10n.t('MassGen: nothing was written. {0}', reasons.join(' ')),
		);
		return true;
	}
	return false;
}

/**
 * Logs what an applied accept wrote, warns when it could not be recorded, and tells the user about
 * merges and conflict markers; returns the accept's detail for the status bar.
 */
export function reportWritten(result: AcceptResult, runId: string, log: Log): string {
	log.info(
		`change review: run ${runId}: wrote ${result.written.join(', ') || 'nothing'}${result.merged.length ? `; merged with your edits: ${result.merged.join(', ')}` : ''}${result.marked.length ? `; conflict markers: ${result.marked.join(', ')}` : ''}`,
	);
	if (result.unrecorded !== undefined) {
		log.warn(`change review: run ${runId}: the accept was not recorded: ${result.unrecorded}`);
		void vscode.window.showWarningMessage(
			vscode.l10n.t(
				'MassGen: the changes were applied, but could not be recorded, so Revert Run cannot undo them ({0}). Undo (Ctrl+Z) still can.',
				result.unrecorded,
			),
		);
	}
	const parts = acceptParts(result);
	if (result.merged.length || result.marked.length) {
		const written =
			result.written.length === 1
				? vscode.l10n.t('applied 1 file')
				: vscode.l10n.t('applied {0} files', result.written.length);
		void vscode.window.showInformationMessage(vscode.l10n.t('MassGen: {0}.', [written, ...parts].join('; ')));
	}
	return parts.join('; ');
}
