/**
 * The user's steering for `reduceRun`: messages sent to the team while it runs (`steer`, then
 * `steer-delivered` per agent) and why coordination ended (`coordination-end`).
 */
import type { RunEventOf } from '../contract/runEvents.js';
import { getOwn, setOwn } from './agentLane.js';
import { invalidateVotes } from './reduceVotes.js';
import {
	BY_USER_MESSAGE,
	MAX_USER_MESSAGES,
	type AgentLane,
	type RunState,
	type UserMessageView,
} from './runState.js';

/**
 * A message accepted for `agents`: each of their lanes lists it, pending. Unless it is a note, their
 * votes no longer count (the user changed the task), as the orchestrator removes them (no event says so).
 */
export function recordSteer(state: RunState, e: RunEventOf<'steer'>): RunState {
	const message: UserMessageView = {
		id: e.id,
		text: e.text,
		toAll: e.targetAgentId === undefined,
		noteOnly: e.noteOnly,
		t: e.t,
		delivered: false,
	};
	let agents: Record<string, AgentLane> | null = null;
	for (const agentId of e.agents) {
		const lane = getOwn(state.agents, agentId);
		if (!lane) continue;
		const kept = (lane.userMessages ?? []).filter((m) => m.id !== e.id).slice(1 - MAX_USER_MESSAGES);
		agents ??= { ...state.agents };
		setOwn(agents, agentId, { ...lane, userMessages: [...kept, message] });
	}
	const next = agents ? { ...state, agents } : state;
	// Votes are taken away only while agents coordinate: after the winner is chosen they stand.
	if (e.noteOnly || state.winner !== null || state.coordinationEnd !== undefined) return next;
	const voters = e.agents.filter((agentId) => getOwn(next.votes, agentId));
	return voters.length > 0 ? invalidateVotes(next, { voters, byLabel: BY_USER_MESSAGE }) : next;
}

/** The message went into that agent's request. */
export function markDelivered(state: RunState, e: RunEventOf<'steer-delivered'>): RunState {
	const lane = getOwn(state.agents, e.agentId);
	const messages = lane?.userMessages;
	if (!lane || !messages?.some((m) => m.id === e.id && !m.delivered)) return state;
	const agents = { ...state.agents };
	setOwn(agents, e.agentId, {
		...lane,
		userMessages: messages.map((m) => (m.id === e.id ? { ...m, delivered: true } : m)),
	});
	return { ...state, agents };
}

export function endCoordination(state: RunState, e: RunEventOf<'coordination-end'>): RunState {
	return {
		...state,
		coordinationEnd: {
			reason: e.ended,
			...(e.quorum ? { quorum: { ...e.quorum } } : {}),
			...(e.saved ? { saved: { ...e.saved, agentsNotWaitedFor: [...e.saved.agentsNotWaitedFor] } } : {}),
		},
	};
}
