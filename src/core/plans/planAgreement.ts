/**
 * How many agents' plans have each step of the winning plan: each other agent's latest plan is
 * matched step to step against the winner's (one step of theirs for one of the winner's, the best
 * pairs first), by the files the steps touch and the words they use (`messageSimilarity`, as review
 * findings are merged). The runner-up plans are kept whole for the user to read.
 */
import type { RunResult } from '../../contract/runResult.js';
import { messageSimilarity } from '../codeReview/agreement.js';
import { parsePlanAnswer, type ParsedPlan, type PlanStepDraft } from './parsePlan.js';

export interface AgreedStep extends PlanStepDraft {
	/** Config ids of the agents whose plans have the step, the winner first. */
	readonly agents: readonly string[];
}

export interface OtherPlan {
	readonly agentId: string;
	readonly label: string;
	readonly plan: ParsedPlan;
	readonly text: string;
}

export interface AgreedPlan {
	readonly title: string;
	readonly steps: readonly AgreedStep[];
	/** Agents whose plans were counted (the winner's and every other agent's with a step), at least 1. */
	readonly of: number;
	/** The other agents' latest plans, as they wrote them. */
	readonly others: readonly OtherPlan[];
}

/** The score two steps must reach to be the same step. */
const sameStepBar = 0.4;

/** Words count whole; shared files add up to half as much again (two steps on one file may still differ). */
export function stepSimilarity(a: PlanStepDraft, b: PlanStepDraft): number {
	// The details' start only: every pair of up to 100 steps by 100 is compared.
	const words = messageSimilarity(
		`${a.title} ${a.details.slice(0, 500)}`,
		`${b.title} ${b.details.slice(0, 500)}`,
	);
	const titles = messageSimilarity(a.title, b.title);
	const x = new Set(a.files.map(normalPath));
	const y = new Set(b.files.map(normalPath));
	let shared = 0;
	for (const file of x) if (y.has(file)) shared++;
	const files = x.size && y.size ? shared / new Set([...x, ...y]).size : 0;
	return Math.max(words, titles) + files / 2;
}

export function planAgreement(result: Pick<RunResult, 'winner' | 'answers' | 'finalAnswer'>): AgreedPlan {
	const winner = result.winner?.agentId ?? null;
	const latest = new Map<string, RunResult['answers'][number]>();
	for (const answer of result.answers) latest.set(answer.agentId, answer);
	const fromFinal = parsePlanAnswer(result.finalAnswer ?? '');
	const winnerAnswer = winner ? latest.get(winner) : undefined;
	const chosen = fromFinal.steps.length || !winnerAnswer ? fromFinal : parsePlanAnswer(winnerAnswer.content);
	const others: OtherPlan[] = [...latest.values()]
		.filter((answer) => answer.agentId !== winner)
		.map((answer) => ({
			agentId: answer.agentId,
			label: answer.label,
			plan: parsePlanAnswer(answer.content),
			text: answer.content,
		}));
	const agents = chosen.steps.map((): string[] => (winner ? [winner] : []));
	for (const other of others) {
		for (const [mine] of matchSteps(chosen.steps, other.plan.steps)) agents[mine]!.push(other.agentId);
	}
	const counted = others.filter((other) => other.plan.steps.length > 0).length;
	return {
		title: chosen.title,
		steps: chosen.steps.map((step, index) => ({ ...step, agents: agents[index]! })),
		of: Math.max(1, (winner ? 1 : 0) + counted),
		others,
	};
}

/** "3 of 3", "2 of 3", "only the winner" (one step of a team's plan no one else had). */
export function agreementWords(agents: number, of: number): string {
	return agents === 1 && of > 1 ? 'only the winner' : `${agents} of ${of}`;
}

/** One-to-one pairs `[mine, theirs]` over the bar, the most similar first. */
function matchSteps(mine: readonly PlanStepDraft[], theirs: readonly PlanStepDraft[]): [number, number][] {
	const pairs: { i: number; j: number; score: number }[] = [];
	for (let i = 0; i < mine.length; i++) {
		for (let j = 0; j < theirs.length; j++) {
			const score = stepSimilarity(mine[i]!, theirs[j]!);
			if (score >= sameStepBar) pairs.push({ i, j, score });
		}
	}
	pairs.sort((a, b) => b.score - a.score || a.i - b.i || a.j - b.j);
	const usedMine = new Set<number>();
	const usedTheirs = new Set<number>();
	const matched: [number, number][] = [];
	for (const { i, j } of pairs) {
		if (usedMine.has(i) || usedTheirs.has(j)) continue;
		usedMine.add(i);
		usedTheirs.add(j);
		matched.push([i, j]);
	}
	return matched;
}

function normalPath(path: string): string {
	return path.replace(/\\/g, '/').replace(/^\.\//, '').toLowerCase();
}
