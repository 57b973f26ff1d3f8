/**
 * The history a follow-up carries, cut to a size budget (characters of question + answer):
 * the newest turns are kept whole, older ones are marked left out and listed by question only.
 */
import type { Turn } from '../orchestrator/types.js';

/** Default budget: about 6k tokens of earlier conversation in every agent's first message. */
export const defaultHistoryBudget = 24_000;

/** The newest turn is kept even over budget, its answer cut to fit. */
export function fitHistory(turns: readonly Turn[], budget: number = defaultHistoryBudget): Turn[] {
	if (turns.length === 0) return [];
	let used = 0;
	let firstKept = turns.length;
	while (firstKept > 0) {
		const turn = turns[firstKept - 1]!;
		const size = turnSize(turn);
		if (firstKept < turns.length && used + size > budget) break;
		used += size;
		firstKept--;
	}
	const newest = turns.at(-1)!;
	const room = Math.max(0, budget - turnSize({ ...newest, answer: '' }));
	const last =
		newest.answer.length > room
			? { ...newest, answer: `${newest.answer.slice(0, room)}\n[… answer cut to ${room} characters]` }
			: newest;
	return [
		...turns
			.slice(0, firstKept)
			.map(({ steering: _, reviewComments: __, ...turn }) => ({ ...turn, answer: '', leftOut: true })),
		...turns.slice(firstKept, -1),
		last,
	];
}

function turnSize(turn: Turn): number {
	return (
		turn.question.length +
		turn.answer.length +
		[...(turn.steering ?? []), ...(turn.reviewComments ?? [])].reduce((sum, text) => sum + text.length, 0)
	);
}
