import * as vscode from 'vscode';
import type { RunEvent } from '../../contract/runEvents.js';
import type { RunResult } from '../../contract/runResult.js';
import { changeLines, phaseLine, runEnding, voteSummary } from '../chat/runSummary.js';

/**
 * What a team model streams, as Markdown text (the Chat view renders it; an extension reads it as
 * text): a line per phase and per notice while the team works, then the answer, the vote and the
 * proposed changes, which are not applied.
 */

/** The line an event adds while the team works (a phase, or a notice the answer may not show). */
export function progressText(event: RunEvent): string | undefined {
	if (event.type === 'notice') return `${vscode.l10n.t('Note: {0}.', event.message)}\n\n`;
	const line = phaseLine(event);
	return line === undefined ? undefined : `${line}\n\n`;
}

/** The end of the response: the final answer (or how the run ended), the vote, the changes awaiting review. */
export function answerText(result: RunResult): string {
	const parts: string[] = ['---\n\n'];
	if (result.finalAnswer === null) {
		parts.push(runEnding(result));
	} else {
		if (result.status !== 'completed') {
			parts.push(vscode.l10n.t('{0} The best answer so far:\n\n', runEnding(result)));
		}
		parts.push(result.finalAnswer);
	}
	parts.push(vscode.l10n.t('\n\n---\n**Vote:** {0}', voteSummary(result)));
	const changes = changeLines(result);
	if (changes.length > 0) {
		parts.push(
			vscode.l10n.t(
				'\n\n**Proposed changes** (not applied; they wait for your review in the MassGen panel or MassGen: Review Proposed Changes):\n{0}',
				changes.map((line) => `- \`${line}\``).join('\n'),
			),
		);
	}
	return parts.join('');
}
