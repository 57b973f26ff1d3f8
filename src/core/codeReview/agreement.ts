import type { Finding, Severity } from './findings.js';

export interface AgentFindings {
	/** Config id. */
	readonly agentId: string;
	readonly findings: readonly Finding[];
}

/** A finding with the agents that raised it ("raised by K of N agents"). */
export interface AgreedFinding extends Finding {
	/** Config ids, the winner first when it raised it. */
	readonly agents: readonly string[];
	/** In the winning final review (else raised only by other agents, at least two of them). */
	readonly inWinner: boolean;
}

export interface AgreementInput {
	/** The winner's config id (null: no winner). */
	readonly winner: string | null;
	/** Findings of the winning final answer. */
	readonly final: readonly Finding[];
	/** Findings of every agent's latest answer (the winner's included). */
	readonly answers: readonly AgentFindings[];
	/** Lines two findings may be apart and still be the same finding (default 2). */
	readonly tolerance?: number;
	/** Findings not in the winning review are kept when this many agents raised them (default 2). */
	readonly minOthers?: number;
}

const stopWords = new Set([
	'the',
	'and',
	'for',
	'this',
	'that',
	'with',
	'are',
	'was',
	'not',
	'can',
	'should',
	'could',
	'will',
	'may',
	'might',
	'here',
	'there',
	'when',
	'which',
	'into',
	'from',
	'than',
	'then',
	'its',
	'use',
	'line',
	'lines',
	'code',
]);

function words(message: string): Set<string> {
	return new Set(
		message
			.toLowerCase()
			.split(/[^a-z0-9_]+/)
			.filter((word) => word.length >= 3 && !stopWords.has(word)),
	);
}

/** Dice coefficient of the two messages' significant words. */
export function messageSimilarity(a: string, b: string): number {
	const x = words(a);
	const y = words(b);
	if (x.size === 0 || y.size === 0) return a.trim().toLowerCase() === b.trim().toLowerCase() ? 1 : 0;
	let common = 0;
	for (const word of x) if (y.has(word)) common++;
	return (2 * common) / (x.size + y.size);
}

/**
 * The same concern: the same file, line ranges overlap or lie within `tolerance` lines, and the wording is
 * similar (a lower bar when both name exactly the same lines).
 */
export function sameFinding(a: Finding, b: Finding, tolerance = 2): boolean {
	if ((a.path ?? '') !== (b.path ?? '')) return false;
	const near = a.line <= b.endLine + tolerance && b.line <= a.endLine + tolerance;
	if (!near) return false;
	const exact = a.line === b.line && a.endLine === b.endLine;
	return messageSimilarity(a.message, b.message) >= (exact ? 0.15 : 0.3);
}

const rank: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/**
 * Counts, for each finding of the winning review, how many agents raised it (the winner always,
 * plus every other agent whose latest answer has the same finding), and adds findings the
 * winner left out that at least `minOthers` other agents agree on. Sorted by file, line, then severity.
 */
export function countAgreement(input: AgreementInput): AgreedFinding[] {
	const tolerance = input.tolerance ?? 2;
	const others = input.answers.filter((answer) => answer.agentId !== input.winner);
	const raisedBy = (finding: Finding, among: readonly AgentFindings[]) =>
		among
			.filter((answer) => answer.findings.some((other) => sameFinding(finding, other, tolerance)))
			.map((answer) => answer.agentId);

	const agreed: AgreedFinding[] = [];
	for (const finding of dedupe(input.final, tolerance)) {
		agreed.push({
			...finding,
			agents: [...(input.winner ? [input.winner] : []), ...raisedBy(finding, others)],
			inWinner: true,
		});
	}
	const leftOut = others
		.flatMap((answer) => answer.findings)
		.filter((finding) => !agreed.some((known) => sameFinding(known, finding, tolerance)));
	for (const finding of dedupe(leftOut, tolerance)) {
		const agents = raisedBy(finding, others);
		if (agents.length >= (input.minOthers ?? 2)) agreed.push({ ...finding, agents, inWinner: false });
	}
	return agreed.sort(
		(a, b) =>
			(a.path ?? '').localeCompare(b.path ?? '') || a.line - b.line || rank[a.severity] - rank[b.severity],
	);
}

function dedupe(findings: readonly Finding[], tolerance: number): Finding[] {
	const kept: Finding[] = [];
	for (const finding of findings) {
		if (!kept.some((known) => sameFinding(known, finding, tolerance))) kept.push(finding);
	}
	return kept;
}
