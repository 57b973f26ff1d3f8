import type { CoordinationRecord } from '../../contract/runEvents.js';
import type { VoteRecord } from './board.js';

/** `orchestrator.coordination.quorum`: this many live agents' votes, a majority of them, or off. */
export type QuorumSetting = number | 'majority' | null;

/**
 * Whether enough live agents' current votes back one answer to end coordination without waiting
 * for the rest. `votes` are the board's valid votes (live agents' only: a stopped agent's vote is
 * removed). A quorum larger than the live team is never reached: consensus ends the run then.
 */
export function quorumReached(
	setting: QuorumSetting,
	liveAgents: number,
	votes: readonly VoteRecord[],
): CoordinationRecord['quorum'] {
	if (setting === null || liveAgents === 0) return undefined;
	const required = setting === 'majority' ? Math.floor(liveAgents / 2) + 1 : setting;
	if (required > liveAgents) return undefined;
	const byAgent = new Map<string, VoteRecord[]>();
	for (const vote of votes) {
		byAgent.set(vote.votedForAgent, [...(byAgent.get(vote.votedForAgent) ?? []), vote]);
	}
	const best = [...byAgent.values()].sort((a, b) => b.length - a.length)[0];
	if (best === undefined || best.length < required) return undefined;
	return { required, votes: best.length, label: best[0]!.label };
}
