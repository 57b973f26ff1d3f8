/**
 * The pure fold from RunEvents to RunState, shared by the webview, the extension host and the CLI.
 */
import { planRunLabel } from '../contract/plan.js';
import type { Phase, RunEvent, RunEventOf } from '../contract/runEvents.js';
import {
	appendBounded,
	emptyLane,
	getOwn,
	nextLaneState,
	setOwn,
	settleLanes,
	withLane,
	withToolResult,
} from './agentLane.js';
import { endCoordination, markDelivered, recordSteer } from './reduceSteer.js';
import { invalidateVotes, recordVote, removeVoter } from './reduceVotes.js';
import {
	initialRunState,
	MAX_TOOL_CALLS,
	type AgentLane,
	type AgentLaneState,
	type RunState,
	type ToolCallView,
} from './runState.js';

/**
 * Applies one event. Events of another run are ignored unless they start a new run (which resets
 * the state); events whose `seq` is not above `lastSeq` are ignored, so replaying a log twice or
 * after a snapshot is harmless. Never throws, never mutates `state`.
 */
export function reduceRun(state: RunState, event: RunEvent): RunState {
	if (event.type === 'run-start' && state.runId !== null && event.runId !== state.runId) {
		return reduceRun(initialRunState(), event);
	}
	if (state.runId !== null && event.runId !== state.runId) return state;
	if (event.seq <= state.lastSeq) return state;
	const next = apply(state, event);
	return {
		...next,
		runId: state.runId ?? event.runId,
		lastSeq: event.seq,
		lastT: Math.max(state.lastT, event.t),
	};
}

/** Folds a batch (a replayed log, or a coalesced `events` message). */
export function reduceRunEvents(state: RunState, events: readonly RunEvent[]): RunState {
	let next = state;
	for (const event of events) next = reduceRun(next, event);
	return next;
}

function activeState(lane: AgentLane, phase: Phase): AgentLaneState {
	return nextLaneState(lane.state, phase === 'presentation' ? 'presenting' : 'streaming');
}

function apply(state: RunState, e: RunEvent): RunState {
	switch (e.type) {
		case 'run-start':
			return startRun(state, e);
		case 'round-start':
			return withLane(state, e.agentId, e.t, (lane) => ({
				state: nextLaneState(lane.state, 'streaming'),
				round: e.round,
				snapshot: e.snapshot,
				text: '',
				textDropped: 0,
				reasoning: '',
				reasoningDropped: 0,
				restarts: e.round > 1 ? lane.restarts + 1 : lane.restarts,
			}));
		case 'text-delta':
			return withLane(state, e.agentId, e.t, (lane) => {
				const { text, dropped } = appendBounded(lane.text, lane.textDropped, e.text);
				return { text, textDropped: dropped, state: activeState(lane, e.phase) };
			});
		case 'reasoning-delta':
			return withLane(state, e.agentId, e.t, (lane) => {
				const { text, dropped } = appendBounded(lane.reasoning, lane.reasoningDropped, e.text);
				return { reasoning: text, reasoningDropped: dropped, state: activeState(lane, e.phase) };
			});
		case 'tool-call':
			return withLane(state, e.agentId, e.t, (lane) => {
				const call: ToolCallView = {
					callId: e.callId,
					name: e.name,
					args: e.args,
					phase: e.phase,
					round: lane.round,
					t: e.t,
					result: null,
				};
				const kept = lane.toolCalls.length >= MAX_TOOL_CALLS ? lane.toolCalls.slice(1) : lane.toolCalls;
				return { toolCalls: [...kept, call], state: activeState(lane, e.phase) };
			});
		case 'tool-result':
			return withLane(state, e.agentId, e.t, (lane) => ({ toolCalls: withToolResult(lane, e) }));
		case 'provider-tool':
			// Shown like a finished tool call: it ran on the provider's side, call and result at once.
			return withLane(state, e.agentId, e.t, (lane) => {
				const call: ToolCallView = {
					...providerToolView(e),
					phase: e.phase,
					round: lane.round,
					t: e.t,
				};
				const kept = lane.toolCalls.length >= MAX_TOOL_CALLS ? lane.toolCalls.slice(1) : lane.toolCalls;
				return { toolCalls: [...kept, call], state: activeState(lane, e.phase) };
			});
		case 'approval-request':
			return withLane(
				{
					...state,
					approvals: [
						...state.approvals.filter((a) => a.requestId !== e.requestId),
						{
							requestId: e.requestId,
							agentId: e.agentId,
							action: e.action,
							target: e.target,
							reason: e.reason,
							t: e.t,
							decision: null,
							by: null,
						},
					],
				},
				e.agentId,
				e.t,
				() => ({}),
			);
		case 'command-sandbox':
			return {
				...state,
				commandSandbox: {
					mode: e.mode,
					network: e.network,
					notice: e.notice,
					...(e.scratch ? { scratch: e.scratch } : {}),
				},
			};
		case 'notice':
			return { ...state, notices: [...(state.notices ?? []), e.message] };
		case 'evaluation-start':
			return { ...state, evaluating: { agentId: e.agentId, attempt: e.attempt } };
		case 'evaluation-end': {
			const { evaluating: _done, ...rest } = state;
			return rest;
		}
		case 'attempt-start': {
			// Coordination starts again: the last attempt's votes, winner, answer and end no longer count.
			const { coordinationEnd: _ended, ...rest } = state;
			return {
				...rest,
				votes: {},
				tally: {},
				winner: null,
				presenter: null,
				finalAnswer: null,
				restarts: [
					...(state.restarts ?? []),
					{ attempt: e.attempt, reason: e.reason, instructions: e.instructions },
				],
			};
		}
		case 'approval-result':
			return withLane(
				{
					...state,
					approvals: state.approvals.map((a) =>
						a.requestId === e.requestId ? { ...a, decision: e.decision, by: e.by } : a,
					),
				},
				e.agentId,
				e.t,
				() => ({}),
			);
		case 'update-injected':
			return withLane(state, e.agentId, e.t, (lane) => ({
				updates: lane.updates + 1,
				snapshot: [...lane.snapshot, ...e.labels.filter((label) => !lane.snapshot.includes(label))],
			}));
		case 'new-answer':
			return withLane(
				{ ...state, answerLabels: { ...state.answerLabels, [e.label]: e.agentId } },
				e.agentId,
				e.t,
				(lane) => ({
					answers: [...lane.answers, { label: e.label, content: e.content, round: lane.round, t: e.t }],
					state: nextLaneState(lane.state, 'answered'),
				}),
			);
		case 'vote':
			return recordVote(state, e);
		case 'checklist':
			return { ...state, checklist: { criteria: e.criteria, threshold: e.threshold } };
		case 'votes-invalidated':
			return invalidateVotes(state, e);
		case 'workflow-error':
			return withLane(state, e.agentId, e.t, (lane) => ({
				workflowErrors: lane.workflowErrors + 1,
				lastError: { kind: 'workflow', message: e.message, t: e.t },
			}));
		case 'agent-error':
			return withLane(state, e.agentId, e.t, (lane) => ({
				state: nextLaneState(lane.state, 'error'),
				lastError: { kind: e.kind, message: e.message, t: e.t },
			}));
		case 'agent-killed':
			// A killed agent leaves the vote (docs/protocol.md, rule 5).
			return withLane(removeVoter(state, e.agentId), e.agentId, e.t, () => ({
				state: 'killed',
				killedReason: e.reason,
			}));
		case 'agent-stopped':
			return withLane(removeVoter(state, e.agentId), e.agentId, e.t, () => ({
				state: 'killed',
				killedReason: 'stopped by the user',
				stopped: true,
			}));
		case 'steer':
			return recordSteer(state, e);
		case 'steer-delivered':
			return markDelivered(state, e);
		case 'coordination-end':
			return endCoordination(state, e);
		case 'budget-reached':
			return state.budget ? { ...state, budget: { ...state.budget, reason: e.reason } } : state;
		case 'winner-selected':
			return settleLanes(
				{
					...state,
					winner: { agentId: e.agentId, label: e.label, reason: e.reason },
					tally: { ...e.tally },
				},
				['idle', 'streaming'],
			);
		case 'presentation-start':
			return withLane({ ...state, presenter: e.agentId }, e.agentId, e.t, (lane) => ({
				state: nextLaneState(lane.state, 'presenting'),
				text: '',
				textDropped: 0,
				reasoning: '',
				reasoningDropped: 0,
			}));
		case 'file-edit':
			return withLane(
				{
					...state,
					fileEdits: [
						...state.fileEdits.filter(
							(f) => !(f.path === e.path && f.agentId === e.agentId && f.phase === e.phase),
						),
						{ path: e.path, kind: e.kind, agentId: e.agentId, phase: e.phase },
					],
				},
				e.agentId,
				e.t,
				() => ({}),
			);
		case 'final-answer':
			return withLane(
				{ ...state, finalAnswer: { agentId: e.agentId, label: e.label, content: e.content } },
				e.agentId,
				e.t,
				(lane) => ({ state: lane.state === 'presenting' ? 'done' : lane.state }),
			);
		case 'usage':
			return withLane(state, e.agentId, e.t, (lane) => ({
				inputTokens: lane.inputTokens + e.usage.inputTokens,
				outputTokens: lane.outputTokens + e.usage.outputTokens,
				reasoningTokens: lane.reasoningTokens + (e.usage.reasoningTokens ?? 0),
				cachedInputTokens: lane.cachedInputTokens + (e.usage.cachedInputTokens ?? 0),
				calls: lane.calls + 1,
				costUsd: lane.costUsd === null || e.costUsd === null ? null : lane.costUsd + e.costUsd,
			}));
		case 'call-aborted':
			return withLane(state, e.agentId, e.t, (lane) => ({
				calls: lane.calls + 1,
				abortedCalls: lane.abortedCalls + 1,
				inputTokens: lane.inputTokens + (e.usage?.inputTokens ?? 0),
				outputTokens: lane.outputTokens + (e.usage?.outputTokens ?? 0),
				cachedInputTokens: lane.cachedInputTokens + (e.usage?.cachedInputTokens ?? 0),
			}));
		case 'compacted':
			// In events.jsonl and the CLI's lines; its summary call's tokens come as a `usage` event.
			return state;
		case 'run-end':
			return settleLanes({ ...state, status: e.status, durationMs: e.durationMs, error: e.error ?? null }, [
				'idle',
				'streaming',
				'answered',
				'voted',
				'presenting',
			]);
		default:
			return ignoreUnknown(e, state);
	}
}

/** Compile-time exhaustiveness; at run time an unknown type (a newer log) is skipped, not thrown. */
/** A provider tool's name, arguments and result text (its sources one per line) for the lane. */
function providerToolView(
	e: RunEventOf<'provider-tool'>,
): Pick<ToolCallView, 'callId' | 'name' | 'args' | 'result'> {
	const name = { search: 'web_search', fetch: 'web_fetch', code: 'code_execution' }[e.kind];
	const args = {
		...(e.query === undefined ? {} : { query: e.query }),
		...(e.code === undefined ? {} : { code: e.code }),
	};
	const sources = (e.sources ?? []).map((s) => (s.title === s.url ? s.url : `${s.title} — ${s.url}`));
	const text = [e.output, ...sources].filter((line) => line !== undefined && line !== '').join('\n');
	return { callId: e.callId, name, args, result: { isError: e.isError, text, t: e.t } };
}

function ignoreUnknown(_event: never, state: RunState): RunState {
	return state;
}

function startRun(state: RunState, e: RunEventOf<'run-start'>): RunState {
	const agents: Record<string, AgentLane> = { ...state.agents };
	const order = e.agents.map((info) => info.agentId);
	for (const info of e.agents) {
		const existing = getOwn(agents, info.agentId);
		setOwn(
			agents,
			info.agentId,
			existing
				? { ...existing, anonId: info.anonId, provider: info.provider, model: info.model }
				: emptyLane(info.agentId, info),
		);
	}
	const extra = state.agentOrder.filter((id) => !order.includes(id));
	return {
		...state,
		// A plan's run is named by its part in the plan: its question is mostly the plan format.
		question: e.plan ? planRunLabel(e.plan) : e.question,
		workspace: e.workspace,
		...(e.attachments?.length ? { attachments: e.attachments } : {}),
		...(e.instructions?.length ? { instructions: e.instructions } : {}),
		...(e.budget
			? {
					budget: {
						maxCostUsd: e.budget.maxCostUsd?.limit ?? null,
						maxTokens: e.budget.maxTokens?.limit ?? null,
						reason: null,
					},
				}
			: {}),
		status: 'running',
		agentOrder: [...order, ...extra],
		agents,
	};
}
