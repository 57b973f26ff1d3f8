/**
 * A review's findings as text (`massgen review`, and `massgen mcp`'s review_changes): the agreed
 * findings, then the single-agent findings apart, each with its place, severity, title, how many
 * agents raised it and each agent's reason. Plain text: a terminal's caller sanitises it.
 */
import type { MergedFinding } from '../../core/codeReview/agreement.js';
import type { ReviewOutcome } from '../../core/codeReview/reviewOutcome.js';
import type { DiffSource } from '../../core/context/attachment.js';
import { oneLine } from '../../core/sessions/reportFormat.js';

/** `src/app.ts:2-4` (`(no file named)` when the finding has no path). */
export function findingPlace(finding: Pick<MergedFinding, 'path' | 'line' | 'endLine'>): string {
	const lines = finding.endLine > finding.line ? `${finding.line}-${finding.endLine}` : `${finding.line}`;
	return `${finding.path ?? '(no file named)'}:${lines}`;
}

export function raisedWords(finding: MergedFinding, of: number): string {
	return `raised by ${finding.agents.length} of ${of} agent${of === 1 ? '' : 's'}`;
}

function findingLines(finding: MergedFinding, of: number): string[] {
	const winner = finding.inWinner ? '' : ', not in the winning review';
	return [
		`- ${finding.severity} ${findingPlace(finding)} ${oneLine(finding.title, 100)} (${raisedWords(finding, of)}${winner})`,
		...finding.reasons.map(
			(reason) => `    ${reason.agentId} (${reason.severity}): ${oneLine(reason.message, 600)}`,
		),
	];
}

/** What was reviewed, in words: `the working tree changes`, `the staged changes`, `the changes A..B`. */
export function diffWords(source: DiffSource): string {
	if (source === 'working-tree') return 'the working tree changes';
	return source === 'staged' ? 'the staged changes' : `the changes ${source}`;
}

/** Why there is nothing to review. */
export function emptyWords(source: DiffSource): string {
	if (source === 'working-tree') return 'the working tree has no changes';
	return source === 'staged'
		? 'nothing is staged'
		: `no file changes between ${source.replace('..', ' and ')}`;
}

/** The head line, the agreed findings, then the single-agent findings under their own heading. */
export function reviewText(outcome: ReviewOutcome, source: DiffSource): string {
	const { agreed, single, of } = outcome;
	const agents = of === 1 ? '1 agent' : `${of} agents`;
	if (agreed.length + single.length === 0) {
		return `The team found no problems in ${diffWords(source)} (${agents} reviewed them).`;
	}
	const lines = [
		`${agreed.length} agreed finding(s) in ${diffWords(source)} (${agents} reviewed them), by file and line:`,
		...agreed.flatMap((finding) => findingLines(finding, of)),
	];
	if (single.length > 0) {
		lines.push(
			'',
			`${single.length} single-agent finding(s), raised by one agent only:`,
			...single.flatMap((finding) => findingLines(finding, of)),
		);
	}
	return lines.join('\n');
}
