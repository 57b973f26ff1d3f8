import type { AnswerRecord } from '../agents/answers.js';
import type { VoteRecord } from './board.js';

export interface WinnerChoice {
	readonly agentId: string;
	readonly label: string;
	readonly tally: Record<string, number>;
	readonly reason: 'votes' | 'tie-break' | 'no-votes';
}

/**
 * Most valid votes wins; a tie goes to the tied answer accepted earliest; with no votes, the
 * earliest answer wins (`latest`: the most recent, when the user said Finish now). Votes are for
 * agents: the winner presents its latest answer.
 */
export function selectWinner(
	answers: readonly AnswerRecord[],
	votes: readonly VoteRecord[],
	withoutVotes: 'earliest' | 'latest' = 'earliest',
): WinnerChoice | null {
	if (answers.length === 0) return null;
	const byTime = [...answers].sort((a, b) => a.acceptedAt - b.acceptedAt);
	const tally: Record<string, number> = {};
	for (const vote of votes) tally[vote.votedForAgent] = (tally[vote.votedForAgent] ?? 0) + 1;
	const best = Math.max(0, ...Object.values(tally));
	if (best === 0) {
		const first = withoutVotes === 'latest' ? byTime.at(-1)! : byTime[0]!;
		return { agentId: first.agentId, label: first.label, tally, reason: 'no-votes' };
	}
	const tied = byTime.filter((answer) => tally[answer.agentId] === best);
	const winner = tied[0]!;
	return {
		agentId: winner.agentId,
		label: winner.label,
		tally,
		reason: tied.length > 1 ? 'tie-break' : 'votes',
	};
}
