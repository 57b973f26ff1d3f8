import { severityOrder, type Finding, type Severity } from './findings.js';

export interface AgentFindings {
	/** Config id. */
	readonly agentId: string;
	readonly findings: readonly Finding[];
}

/** One agent's own words for a merged finding. */
export interface AgentReason {
	/** Config id. */
	readonly agentId: string;
	readonly line: number;
	readonly endLine: number;
	readonly severity: Severity;
	readonly title: string;
	readonly message: string;
}

/**
 * A finding as the team raised it: the same concern from several agents merged into one. Its place,
 * title and message are the winning review's when it has it, else the first agent's; its severity
 * is the one most of its agents gave (a tie: the higher).
 */
export interface MergedFinding extends Finding {
	/** Config ids of the agents that raised it ("raised by K of N agents"), the winner first. */
	readonly agents: readonly string[];
	/** Each agent's own finding, in the order of `agents`. */
	readonly reasons: readonly AgentReason[];
	/** In the winning final review. */
	readonly inWinner: boolean;
}

export interface MergeInput {
	/** The winner's config id (null: no winner). */
	readonly winner: string | null;
	/** Findings of the winning final answer (the winner's own, with its latest answer's). */
	readonly final: readonly Finding[];
	/** Findings of every agent's latest answer (the winner's included). */
	readonly answers: readonly AgentFindings[];
	/** Lines two findings may be apart and still be the same finding (default 2). */
	readonly tolerance?: number;
}

const stopWords = new Set(
	(
		'the and for this that with are was not can should could will may might here there when which into from than then ' +
		'its use line lines code also only does would must any all some been being has have had their these those what ' +
		'where while because possible potential potentially issue problem likely instead even just very more less'
	).split(' '),
);

/**
 * A word's stem: lower case, a common English suffix off, the first five letters, so `divides` and
 * `dividing`, `injection` and `injected`, `values` and `value` meet.
 */
function stem(word: string): string {
	const bare = word.replace(/(?:ations?|ions?|ings?|ed|es|s|ly)$/, '');
	return (bare.length >= 3 ? bare : word).slice(0, 5);
}

function stems(text: string): Set<string> {
	return new Set(
		text
			.toLowerCase()
			.split(/[^a-z0-9_]+/)
			.filter((word) => word.length >= 3 && !stopWords.has(word))
			.map(stem),
	);
}

/**
 * How alike two texts are, 0 to 1, by their significant words' stems: the Dice coefficient, or
 * three quarters of the overlap coefficient when one text is much shorter (a title against a
 * paragraph), whichever is higher.
 */
export function messageSimilarity(a: string, b: string): number {
	const x = stems(a);
	const y = stems(b);
	if (x.size === 0 || y.size === 0) return a.trim().toLowerCase() === b.trim().toLowerCase() ? 1 : 0;
	let common = 0;
	for (const word of x) if (y.has(word)) common++;
	return Math.max((2 * common) / (x.size + y.size), (0.75 * common) / Math.min(x.size, y.size));
}

/** Title and message, compared together. */
function findingSimilarity(a: Finding, b: Finding): number {
	return messageSimilarity(`${a.title} ${a.message}`, `${b.title} ${b.message}`);
}

/**
 * The same concern, by location and meaning: the same file, line ranges that overlap or lie within
 * `tolerance` lines, and similar words in title and message (the bar rises as the ranges part: 0.25
 * for the same lines, 0.3 overlapping, 0.4 only near). Returns the similarity, or 0 when not the same.
 */
export function sameFindingScore(a: Finding, b: Finding, tolerance = 2): number {
	if ((a.path ?? '') !== (b.path ?? '')) return 0;
	if (a.line > b.endLine + tolerance || b.line > a.endLine + tolerance) return 0;
	const bar =
		a.line === b.line && a.endLine === b.endLine
			? 0.25
			: a.line <= b.endLine && b.line <= a.endLine
				? 0.3
				: 0.4;
	const score = findingSimilarity(a, b);
	return score >= bar ? score : 0;
}

export function sameFinding(a: Finding, b: Finding, tolerance = 2): boolean {
	return sameFindingScore(a, b, tolerance) > 0;
}

interface Member {
	readonly agentId: string;
	readonly finding: Finding;
	readonly final: boolean;
}

/**
 * Merges the findings of every agent: each agent's findings (the winner's final review first, then
 * its latest answer) join the most similar group that holds a `sameFinding` of another agent and none
 * of its own, else start a group. Every finding is kept, however few agents raised it; sorted by
 * file, line, then severity (the highest first).
 */
export function mergeFindings(input: MergeInput): MergedFinding[] {
	const tolerance = input.tolerance ?? 2;
	const own = new Map<string, Member[]>();
	const add = (agentId: string, findings: readonly Finding[], final: boolean) => {
		const list = own.get(agentId) ?? [];
		for (const finding of findings) {
			// The same concern twice from one agent (its review repeats its answer) is one finding.
			if (!list.some((known) => sameFinding(known.finding, finding, tolerance))) {
				list.push({ agentId, finding, final });
			}
		}
		own.set(agentId, list);
	};
	if (input.winner) add(input.winner, input.final, true);
	for (const answer of input.answers) add(answer.agentId, answer.findings, false);

	const groups: Member[][] = [];
	for (const members of own.values()) {
		for (const member of members) {
			let best: Member[] | undefined;
			let bestScore = 0;
			for (const group of groups) {
				if (group.some((other) => other.agentId === member.agentId)) continue;
				const score = Math.max(
					...group.map((other) => sameFindingScore(other.finding, member.finding, tolerance)),
				);
				if (score > bestScore) [best, bestScore] = [group, score];
			}
			if (best) best.push(member);
			else groups.push([member]);
		}
	}
	return groups
		.map(merged)
		.sort(
			(a, b) =>
				(a.path ?? '').localeCompare(b.path ?? '') ||
				a.line - b.line ||
				severityOrder.indexOf(a.severity) - severityOrder.indexOf(b.severity),
		);
}

function merged(group: readonly Member[]): MergedFinding {
	const lead = group.find((member) => member.final) ?? group[0]!;
	const votes = new Map<Severity, number>();
	for (const member of group) {
		votes.set(member.finding.severity, (votes.get(member.finding.severity) ?? 0) + 1);
	}
	const most = Math.max(...votes.values());
	const severity = severityOrder.find((level) => votes.get(level) === most)!;
	return {
		...lead.finding,
		severity,
		agents: group.map((member) => member.agentId),
		reasons: group.map(({ agentId, finding }) => ({
			agentId,
			line: finding.line,
			endLine: finding.endLine,
			severity: finding.severity,
			title: finding.title,
			message: finding.message,
		})),
		inWinner: group.some((member) => member.final),
	};
}
