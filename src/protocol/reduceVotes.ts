/**
 * Vote bookkeeping for `reduceRun`: current valid votes, history and the live tally.
 */
import type { RunEventOf } from '../contract/runEvents.js';
import { getOwn, nextLaneState, setOwn, tallyVotes, withLane } from './agentLane.js';
import type { AgentLane, RunState, VoteView } from './runState.js';

/** A vote replaces the voter's previous one (an agent holds at most one vote). */
export function recordVote(state: RunState, e: RunEventOf<'vote'>): RunState {
	const vote: VoteView = {
		voter: e.voter,
		votedFor: e.votedFor,
		votedForAgent: e.votedForAgent,
		reason: e.reason,
		t: e.t,
		...(e.scores ? { scores: e.scores } : {}),
	};
	const votes = { ...state.votes };
	setOwn(votes, e.voter, vote);
	return withLane(
		{
			...state,
			votes,
			voteHistory: [...state.voteHistory, { ...vote, invalidatedBy: null }],
			tally: tallyVotes(votes),
		},
		e.voter,
		e.t,
		(lane) => ({ state: nextLaneState(lane.state, 'voted') }),
	);
}

/** Clears the named voters' votes, marks them in the history and puts their lanes back to idle. */
export function invalidateVotes(
	state: RunState,
	e: Pick<RunEventOf<'votes-invalidated'>, 'voters' | 'byLabel'>,
): RunState {
	const voters = new Set(e.voters);
	const votes = { ...state.votes };
	for (const voter of voters) delete votes[voter];
	// Only each voter's latest still-valid entry is the vote that was just invalidated.
	const pending = new Set(voters);
	const history = [...state.voteHistory];
	for (let i = history.length - 1; i >= 0 && pending.size > 0; i--) {
		const entry = history[i]!;
		if (pending.has(entry.voter) && entry.invalidatedBy === null) {
			history[i] = { ...entry, invalidatedBy: e.byLabel };
			pending.delete(entry.voter);
		}
	}
	let agents: Record<string, AgentLane> | null = null;
	for (const voter of voters) {
		const lane = getOwn(state.agents, voter);
		if (lane?.state !== 'voted') continue;
		agents ??= { ...state.agents };
		setOwn(agents, voter, { ...lane, state: 'idle' });
	}
	return {
		...state,
		votes,
		voteHistory: history,
		tally: tallyVotes(votes),
		agents: agents ?? state.agents,
	};
}

/** Drops one voter's current vote (a killed agent leaves the vote). */
export function removeVoter(state: RunState, voter: string): RunState {
	if (!getOwn(state.votes, voter)) return state;
	const votes = { ...state.votes };
	delete votes[voter];
	return { ...state, votes, tally: tallyVotes(votes) };
}
