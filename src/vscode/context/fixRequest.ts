/**
 * The run "Ask MassGen team to fix" starts for a diagnostic (docs/context.md), from plain values so it is
 * testable without VS Code: the question "Fix: <message>", the diagnostic(s) and the lines of the
 * file around them. The agents read the rest of the file with their tools when they need it;
 * attaching all of it as well would make every agent's first call carry it twice.
 */
import * as vscode from 'vscode';
import type { Diagnostic } from '../../core/context/attachment.js';
import type { RunRequest } from '../run/runTypes.js';

/** A `vscode.Diagnostic` as plain values: 0-based lines, as VS Code has them. */
export interface EditorDiagnostic {
	readonly startLine: number;
	readonly startCharacter: number;
	readonly endLine: number;
	/** `vscode.DiagnosticSeverity`: 0 error, 1 warning, 2 information, 3 hint. */
	readonly severity: number;
	readonly message: string;
	readonly source?: string;
	readonly code?: string | number;
}

export const fixTitle = (): string => vscode.l10n.t('Ask MassGen team to fix');

/**
 * The quick fix's title: one per diagnostic, so with several at the cursor each names its message
 * (cut to one short line) instead of repeating the same title.
 */
export function fixActionTitle(message: string, diagnosticsHere: number): string {
	if (diagnosticsHere <= 1) return fixTitle();
	const line = message.split('\n')[0]!.trim();
	return `${fixTitle()}: ${line.length > 60 ? `${line.slice(0, 59)}…` : line}`;
}

/** Lines of context on each side of the diagnostics. */
export const contextLines = 20;

const severities = ['error', 'warning', 'info', 'hint'] as const;

/** As the core's attachment has it: 1-based lines; the code joins the source the way Problems shows it (`ts(2322)`). */
export function toDiagnostic(item: EditorDiagnostic): Diagnostic {
	const source = item.source && item.code !== undefined ? `${item.source}(${item.code})` : item.source;
	return {
		range: { start: item.startLine + 1, end: item.endLine + 1, column: item.startCharacter + 1 },
		severity: severities[item.severity] ?? 'error',
		message: item.message,
		...(source ? { source } : {}),
	};
}

/** The question asks about the first diagnostic; all of them are attached. `lineCount` bounds the context lines. */
export function fixRequest(path: string, items: readonly EditorDiagnostic[], lineCount: number): RunRequest {
	const first = items[0];
	if (!first) throw new Error('fixRequest: no diagnostic');
	const start = Math.min(...items.map((item) => item.startLine));
	const end = Math.max(...items.map((item) => item.endLine));
	const range = {
		start: Math.max(1, start + 1 - contextLines),
		end: Math.min(lineCount, end + 1 + contextLines),
	};
	const more = items.length > 1 ? ` (and ${items.length - 1} more)` : '';
	return {
		question: `Fix: ${first.message}${more}`,
		kind: 'ask',
		attachments: [
			{ kind: 'diagnostics', path, items: items.map(toDiagnostic) },
			{ kind: 'file', path, range },
		],
	};
}
