import { findingsFormat } from './findingsFormat.js';

/** What the review question is built from (1-based, inclusive line numbers). */
export interface ReviewSource {
	/** Workspace-relative path. */
	readonly path: string;
	readonly languageId: string;
	/** Every line of the document (no line endings). */
	readonly lines: readonly string[];
	readonly startLine: number;
	readonly endLine: number;
	/** Lines of context shown before and after the selection (default 20). */
	readonly context?: number;
}

/**
 * The question a selection review sends to the team: the selected code and its surroundings
 * with the file's line numbers, and the format findings must come in (a ```findings JSON list,
 * which `parseFindings` reads from every answer).
 */
export function reviewQuestion(source: ReviewSource): string {
	const context = source.context ?? 20;
	const first = Math.max(1, source.startLine - context);
	const last = Math.min(source.lines.length, source.endLine + context);
	const width = String(last).length;
	const numbered = (from: number, to: number) =>
		source.lines
			.slice(from - 1, to)
			.map((line, i) => `${String(from + i).padStart(width)} | ${line}`)
			.join('\n');
	const fence = '```';
	const parts = [
		`Review the code selected in \`${source.path}\` (lines ${source.startLine}-${source.endLine}). Look for bugs, security problems, unclear or fragile code, and missing error handling. Judge only the selected lines; the surrounding lines are context.`,
		'',
		findingsFormat({
			where: "Use the file's line numbers as shown before the `|`; `endLine` is optional and inclusive.",
			example: { line: source.startLine, endLine: Math.min(source.endLine, source.startLine + 1) },
		}),
		'',
		`If a fix is clear and small, you may make it with the edit tools in \`${source.path}\`; the user reviews it as a diff before anything is written. Do not change other files.`,
	];
	if (first < source.startLine) {
		parts.push(
			'',
			`Context before (lines ${first}-${source.startLine - 1}):`,
			`${fence}${source.languageId}`,
			numbered(first, source.startLine - 1),
			fence,
		);
	}
	parts.push(
		'',
		`Selected code (lines ${source.startLine}-${source.endLine}):`,
		`${fence}${source.languageId}`,
		numbered(source.startLine, source.endLine),
		fence,
	);
	if (last > source.endLine) {
		parts.push(
			'',
			`Context after (lines ${source.endLine + 1}-${last}):`,
			`${fence}${source.languageId}`,
			numbered(source.endLine + 1, last),
			fence,
		);
	}
	return parts.join('\n');
}
