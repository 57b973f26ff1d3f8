/**
 * Small pure helpers behind `reduceRun` for one agent lane.
 */
import type { RunAgentInfo, RunEventOf } from '../contract/runEvents.js';
import {
	MAX_STREAM_CHARS,
	MAX_TOOL_CALLS,
	type AgentLane,
	type AgentLaneState,
	type RunState,
	type ToolCallView,
} from './runState.js';

/** Trimming happens only past this slack, so a streaming lane is not re-sliced on every delta. */
const TRIM_SLACK = 4_096;

/** A lane with nothing yet; provider and model stay empty when the agent was not in `run-start`. */
export function emptyLane(agentId: string, info?: RunAgentInfo): AgentLane {
	return {
		agentId,
		anonId: info?.anonId ?? '',
		provider: info?.provider ?? '',
		model: info?.model ?? '',
		...(info?.role ? { role: info.role } : {}),
		state: 'idle',
		round: 0,
		snapshot: [],
		text: '',
		textDropped: 0,
		reasoning: '',
		reasoningDropped: 0,
		toolCalls: [],
		answers: [],
		restarts: 0,
		updates: 0,
		workflowErrors: 0,
		lastError: null,
		killedReason: null,
		inputTokens: 0,
		outputTokens: 0,
		reasoningTokens: 0,
		cachedInputTokens: 0,
		calls: 0,
		abortedCalls: 0,
		costUsd: 0,
		firstEventT: null,
		lastEventT: null,
	};
}

/** Appends a delta keeping roughly the last MAX_STREAM_CHARS characters. */
export function appendBounded(
	text: string,
	dropped: number,
	delta: string,
): { text: string; dropped: number } {
	const next = text + delta;
	if (next.length <= MAX_STREAM_CHARS + TRIM_SLACK) return { text: next, dropped };
	const cut = next.length - MAX_STREAM_CHARS;
	return { text: next.slice(cut), dropped: dropped + cut };
}

/** Killed is final: nothing but a new run revives a killed lane. */
export function nextLaneState(current: AgentLaneState, next: AgentLaneState): AgentLaneState {
	return current === 'killed' ? current : next;
}

/**
 * Returns `state` with one lane replaced (created when missing), stamping the lane's event times.
 * Only the agents record and the changed lane are copied: the hot path for streaming deltas.
 */
export function withLane(
	state: RunState,
	agentId: string,
	t: number,
	update: (lane: AgentLane) => Partial<AgentLane>,
): RunState {
	const existing = getOwn(state.agents, agentId);
	const lane = existing ?? emptyLane(agentId);
	const next: AgentLane = {
		...lane,
		...update(lane),
		firstEventT: lane.firstEventT ?? t,
		lastEventT: t,
	};
	return {
		...state,
		agents: { ...state.agents, [agentId]: next },
		agentOrder: existing ? state.agentOrder : [...state.agentOrder, agentId],
	};
}

/** Own-property lookup: ids such as `constructor` must not resolve to Object.prototype members. */
export function getOwn<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
	return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** Own-property write: a key such as `__proto__` must become data, never a prototype change. */
export function setOwn<T>(record: Record<string, T>, key: string, value: T): void {
	Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Votes received per config id, from the votes that currently count. */
export function tallyVotes(votes: RunState['votes']): Record<string, number> {
	const tally: Record<string, number> = {};
	for (const vote of Object.values(votes)) {
		setOwn(tally, vote.votedForAgent, (getOwn(tally, vote.votedForAgent) ?? 0) + 1);
	}
	return tally;
}

/** The lane's tool calls with this result attached to its call (matched by callId). */
export function withToolResult(lane: AgentLane, e: RunEventOf<'tool-result'>): ToolCallView[] {
	const result = { isError: e.isError, text: e.text, t: e.t, ...(e.planned ? { planned: e.planned } : {}) };
	const calls = [...lane.toolCalls];
	for (let i = calls.length - 1; i >= 0; i--) {
		const call = calls[i]!;
		if (call.callId === e.callId) {
			calls[i] = { ...call, result };
			return calls;
		}
	}
	// A result whose call was dropped (or never seen) still shows.
	const orphan: ToolCallView = {
		callId: e.callId,
		name: e.name,
		args: {},
		phase: e.phase,
		round: lane.round,
		t: e.t,
		result,
	};
	return [...(calls.length >= MAX_TOOL_CALLS ? calls.slice(1) : calls), orphan];
}

/** Moves lanes in one of `from` to `done` (coordination or the run is over for them). */
export function settleLanes(state: RunState, from: readonly AgentLaneState[]): RunState {
	let agents: Record<string, AgentLane> | null = null;
	for (const id of state.agentOrder) {
		const lane = getOwn(state.agents, id);
		if (!lane || !from.includes(lane.state)) continue;
		agents ??= { ...state.agents };
		setOwn(agents, id, { ...lane, state: 'done' });
	}
	return agents ? { ...state, agents } : state;
}
