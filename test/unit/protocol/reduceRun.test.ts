import { describe, expect, it } from 'vitest';
import type { RunEvent, RunEventBody } from '../../../src/contract/runEvents.js';
import { reduceRun, reduceRunEvents } from '../../../src/protocol/reduceRun.js';
import {
	initialRunState,
	MAX_STREAM_CHARS,
	MAX_TOOL_CALLS,
	presentationChanges,
} from '../../../src/protocol/runState.js';
import { RUN_ID, stamp } from './eventFixtures.js';
import { convergenceBodies, convergenceEvents } from './scenarios.js';

const fold = (events: readonly RunEvent[]) => reduceRunEvents(initialRunState(), events);

const start: RunEventBody = {
	type: 'run-start',
	question: 'q',
	workspace: '/ws',
	agents: [
		{ agentId: 'alice', anonId: 'agent1', provider: 'openai', model: 'gpt-4o' },
		{ agentId: 'bob', anonId: 'agent2', provider: 'claude', model: 'sonnet' },
	],
};

describe('reduceRun: a plan run', () => {
	it("is named by its part in the plan, not its question (mostly the plan's format)", () => {
		const plan = { kind: 'planning', planId: RUN_ID, depth: 'medium', task: 'Add a flag' } as const;
		expect(fold(stamp([{ ...start, question: 'Plan the task below…', plan } as RunEventBody])).question).toBe(
			'Plan: Add a flag',
		);
		const step = { kind: 'step', planId: RUN_ID, step: 2, of: 3, title: 'Print it' } as const;
		expect(fold(stamp([{ ...start, plan: step } as RunEventBody])).question).toBe(
			'Plan step 2 of 3: Print it',
		);
		expect(fold(stamp([start])).question).toBe('q');
	});
});

describe('reduceRun: convergence', () => {
	const state = fold(convergenceEvents());

	it('captures the run, the question and the lanes in run-start order', () => {
		expect(state.runId).toBe(RUN_ID);
		expect(state.question).toBe('How should parse() work?');
		expect(state.status).toBe('completed');
		expect(state.durationMs).toBe(12_345);
		expect(state.error).toBeNull();
		expect(state.agentOrder).toEqual(['alice', 'bob', 'carol']);
		expect(state.agents.bob).toMatchObject({
			anonId: 'agent2',
			provider: 'claude',
			model: 'claude-sonnet-4',
		});
		expect(state.lastSeq).toBe(convergenceBodies().length - 1);
	});

	it('keeps answers with labels, rounds, restarts and updates per lane', () => {
		const alice = state.agents.alice!;
		expect(alice.answers.map((a) => [a.label, a.content, a.round])).toEqual([
			['agent1.1', 'A1', 1],
			['agent1.2', 'A2', 2],
		]);
		expect(alice.round).toBe(3);
		expect(alice.restarts).toBe(2);
		expect(state.agents.bob!.restarts).toBe(2);
		expect(state.agents.carol!.updates).toBe(1);
		expect(state.agents.carol!.snapshot).toEqual(['agent1.1']);
		expect(state.answerLabels).toEqual({ 'agent1.1': 'alice', 'agent1.2': 'alice' });
	});

	it('keeps tool calls with their results by callId', () => {
		expect(state.agents.bob!.toolCalls).toEqual([
			{
				callId: 'c1',
				name: 'read_file',
				args: { path: 'a.ts' },
				phase: 'coordination',
				round: 1,
				t: 70,
				result: { isError: false, text: 'x', t: 80 },
			},
		]);
	});

	it('holds the valid votes, the history with the invalidated vote, the tally and the winner', () => {
		expect(Object.keys(state.votes).sort()).toEqual(['alice', 'bob', 'carol']);
		expect(state.votes.bob).toMatchObject({ votedFor: 'agent1.2', votedForAgent: 'alice', reason: 'better' });
		expect(state.voteHistory.map((v) => [v.voter, v.votedFor, v.invalidatedBy])).toEqual([
			['bob', 'agent1.1', 'agent1.2'],
			['bob', 'agent1.2', null],
			['carol', 'agent1.2', null],
			['alice', 'agent1.2', null],
		]);
		expect(state.tally).toEqual({ alice: 3 });
		expect(state.winner).toEqual({ agentId: 'alice', label: 'agent1.2', reason: 'votes' });
	});

	it('records the presentation, the final answer and the file edits', () => {
		expect(state.presenter).toBe('alice');
		expect(state.agents.alice!.text).toBe('Final text');
		expect(state.finalAnswer).toEqual({
			agentId: 'alice',
			label: 'agent1.2',
			content: '# Final\nUse a map.',
		});
		expect(presentationChanges(state).map((f) => [f.path, f.kind])).toEqual([
			['src/parse.ts', 'modify'],
			['src/new.ts', 'add'],
		]);
	});

	it('ends every lane done and sums usage with a null price as "no price"', () => {
		expect(state.agentOrder.map((id) => state.agents[id]!.state)).toEqual(['done', 'done', 'done']);
		expect(state.agents.alice).toMatchObject({ inputTokens: 300, outputTokens: 50, calls: 2 });
		expect(state.agents.alice!.costUsd).toBeCloseTo(0.03);
		expect(state.agents.bob!.costUsd).toBeNull();
		expect(state.agents.carol!.costUsd).toBe(0);
		expect(state.agents.alice!.firstEventT).toBe(10);
		expect(state.agents.alice!.lastEventT).toBe(290);
	});
});

describe('reduceRun: calls that end early', () => {
	it('counts an aborted call as a call, with the tokens the provider had reported', () => {
		const bodies: RunEventBody[] = [
			start,
			{ type: 'usage', agentId: 'alice', usage: { inputTokens: 100, outputTokens: 20 }, costUsd: 0.01 },
			{
				type: 'call-aborted',
				agentId: 'alice',
				phase: 'coordination',
				reason: 'stale',
				elapsedMs: 40,
				hadOutput: false,
				usage: { inputTokens: 90, outputTokens: 0, cachedInputTokens: 80 },
			},
			{
				type: 'call-aborted',
				agentId: 'bob',
				phase: 'coordination',
				reason: 'stopped',
				elapsedMs: 5,
				hadOutput: true,
			},
		];
		const state = fold(stamp(bodies));
		expect(state.agents.alice).toMatchObject({
			calls: 2,
			abortedCalls: 1,
			inputTokens: 190,
			cachedInputTokens: 80,
		});
		expect(state.agents.alice!.costUsd).toBeCloseTo(0.01);
		expect(state.agents.bob).toMatchObject({ calls: 1, abortedCalls: 1, inputTokens: 0 });
	});
});

describe('reduceRun: lane states along the way', () => {
	it('moves idle → streaming → answered → voted → idle on invalidation', () => {
		const events = convergenceEvents();
		const at = (seq: number) => fold(events.slice(0, seq + 1));
		expect(at(0).agents.alice!.state).toBe('idle');
		expect(at(4).agents.alice!.state).toBe('streaming');
		expect(at(4).agents.alice!.text).toBe('Draft ');
		expect(at(9).agents.alice!.state).toBe('answered');
		expect(at(13).agents.bob!.state).toBe('voted');
		expect(at(13).tally).toEqual({ alice: 1 });
		const invalidated = at(17);
		expect(invalidated.agents.bob!.state).toBe('idle');
		expect(invalidated.votes).toEqual({});
		expect(invalidated.tally).toEqual({});
		expect(at(25).agents.alice!.state).toBe('presenting');
		expect(at(25).agents.alice!.text).toBe('');
	});

	it('kills a lane for good, drops its vote and keeps the reason', () => {
		const state = fold(
			stamp([
				start,
				{ type: 'new-answer', agentId: 'alice', label: 'agent1.1', content: 'A' },
				{
					type: 'vote',
					agentId: 'bob',
					voter: 'bob',
					votedFor: 'agent1.1',
					votedForAgent: 'alice',
					reason: 'ok',
				},
				{
					type: 'agent-error',
					agentId: 'bob',
					message: 'boom',
					kind: 'server',
					retryable: true,
					failures: 3,
				},
				{ type: 'agent-killed', agentId: 'bob', reason: 'failed 3 times' },
				{ type: 'text-delta', agentId: 'bob', phase: 'coordination', text: 'late' },
				{ type: 'run-end', status: 'completed', durationMs: 5 },
			]),
		);
		expect(state.agents.bob).toMatchObject({
			state: 'killed',
			killedReason: 'failed 3 times',
			lastError: { kind: 'server', message: 'boom', t: 30 },
		});
		expect(state.votes).toEqual({});
		expect(state.tally).toEqual({});
		expect(state.agents.alice!.state).toBe('done');
	});

	it('counts workflow errors, keeps agent errors, and records a failed run', () => {
		const state = fold(
			stamp([
				start,
				{ type: 'workflow-error', agentId: 'alice', attempt: 1, message: 'two workflow calls' },
				{ type: 'workflow-error', agentId: 'alice', attempt: 2, message: 'no workflow call' },
				{
					type: 'agent-error',
					agentId: 'bob',
					message: 'bad key',
					kind: 'auth',
					retryable: false,
					failures: 1,
				},
				{ type: 'run-end', status: 'failed', durationMs: 9, error: 'all agents failed' },
			]),
		);
		expect(state.agents.alice).toMatchObject({
			workflowErrors: 2,
			lastError: { kind: 'workflow', message: 'no workflow call' },
		});
		expect(state.agents.bob!.state).toBe('error');
		expect(state).toMatchObject({ status: 'failed', error: 'all agents failed', durationMs: 9 });
	});

	it('tracks approvals from request to decision', () => {
		const state = fold(
			stamp([
				start,
				{
					type: 'approval-request',
					agentId: 'bob',
					requestId: 'r1',
					action: 'run',
					target: 'ls',
					reason: 'cmd',
				},
			]),
		);
		expect(state.approvals).toEqual([
			{
				requestId: 'r1',
				agentId: 'bob',
				action: 'run',
				target: 'ls',
				reason: 'cmd',
				t: 10,
				decision: null,
				by: null,
			},
		]);
		const decided = reduceRun(state, {
			type: 'approval-result',
			agentId: 'bob',
			requestId: 'r1',
			decision: 'deny',
			by: 'user',
			runId: RUN_ID,
			seq: 2,
			t: 20,
		});
		expect(decided.approvals[0]).toMatchObject({ decision: 'deny', by: 'user' });
	});

	it('keeps the latest kind per file edit and separates coordination from presentation edits', () => {
		const state = fold(
			stamp([
				start,
				{ type: 'file-edit', agentId: 'bob', phase: 'coordination', path: 'a.ts', kind: 'add' },
				{ type: 'file-edit', agentId: 'alice', phase: 'presentation', path: 'a.ts', kind: 'modify' },
				{ type: 'file-edit', agentId: 'alice', phase: 'presentation', path: 'a.ts', kind: 'delete' },
			]),
		);
		expect(state.fileEdits).toEqual([
			{ path: 'a.ts', kind: 'add', agentId: 'bob', phase: 'coordination' },
			{ path: 'a.ts', kind: 'delete', agentId: 'alice', phase: 'presentation' },
		]);
		expect(presentationChanges(state)).toHaveLength(1);
	});
});

describe('reduceRun: ordering, replay and bounds', () => {
	it('is idempotent: feeding the same events twice gives the same state', () => {
		const events = convergenceEvents();
		const once = fold(events);
		expect(reduceRunEvents(once, events)).toBe(once);
		expect(fold([...events, ...events])).toEqual(once);
	});

	it('ignores stale and out-of-order seqs and events of another run', () => {
		const events = convergenceEvents();
		const state = fold(events.slice(0, 6));
		expect(reduceRun(state, events[4]!)).toBe(state);
		expect(reduceRun(state, { ...events[6]!, runId: 'other' })).toBe(state);
	});

	it('starts over when a different run starts', () => {
		const first = fold(convergenceEvents());
		const second = reduceRun(first, { ...start, runId: 'run-2', seq: 0, t: 0 } as RunEvent);
		expect(second).toMatchObject({
			runId: 'run-2',
			status: 'running',
			question: 'q',
			winner: null,
			votes: {},
		});
		expect(second.agentOrder).toEqual(['alice', 'bob']);
	});

	it('never mutates the previous state', () => {
		const events = convergenceEvents();
		const before = fold(events.slice(0, 10));
		const frozen = JSON.stringify(before);
		reduceRunEvents(before, events.slice(10));
		expect(JSON.stringify(before)).toBe(frozen);
	});

	it('shares unchanged lanes on a text delta (hot path)', () => {
		const state = fold(convergenceEvents().slice(0, 5));
		const next = reduceRun(state, {
			type: 'text-delta',
			agentId: 'alice',
			phase: 'coordination',
			text: '!',
			runId: RUN_ID,
			seq: 5,
			t: 50,
		});
		expect(next.agents.bob).toBe(state.agents.bob);
		expect(next.voteHistory).toBe(state.voteHistory);
		expect(next.agents.alice!.text).toBe('Draft !');
	});

	it('bounds streamed text and tool calls', () => {
		const chunk = 'x'.repeat(1_000);
		const bodies: RunEventBody[] = [start, { type: 'round-start', agentId: 'alice', round: 1, snapshot: [] }];
		for (let i = 0; i < 50; i++) {
			bodies.push({ type: 'text-delta', agentId: 'alice', phase: 'coordination', text: chunk });
		}
		for (let i = 0; i < MAX_TOOL_CALLS + 5; i++) {
			bodies.push({
				type: 'tool-call',
				agentId: 'alice',
				phase: 'coordination',
				callId: `c${i}`,
				name: 'ls',
				args: {},
			});
		}
		const lane = fold(stamp(bodies)).agents.alice!;
		expect(lane.text.length).toBeLessThanOrEqual(MAX_STREAM_CHARS + 4_096);
		expect(lane.text.length).toBeGreaterThanOrEqual(MAX_STREAM_CHARS);
		expect(lane.text.length + lane.textDropped).toBe(50_000);
		expect(lane.toolCalls).toHaveLength(MAX_TOOL_CALLS);
		expect(lane.toolCalls[0]!.callId).toBe('c5');
	});

	it('creates a lane for an agent missing from run-start, and treats odd ids as data', () => {
		const state = fold(
			stamp([
				start,
				{ type: 'text-delta', agentId: 'constructor', phase: 'coordination', text: 'a' },
				{ type: 'text-delta', agentId: '__proto__', phase: 'coordination', text: 'b' },
			]),
		);
		expect(state.agentOrder).toEqual(['alice', 'bob', 'constructor', '__proto__']);
		expect(state.agents['constructor' as string]!.text).toBe('a');
		expect(Object.hasOwn(state.agents, '__proto__')).toBe(true);
		expect(Object.getPrototypeOf(state.agents)).toBe(Object.prototype);
	});

	it('folds 100k text deltas quickly', () => {
		let state = fold(stamp([start, { type: 'round-start', agentId: 'alice', round: 1, snapshot: [] }]));
		for (let seq = 2; seq < 100_002; seq++) {
			state = reduceRun(state, {
				type: 'text-delta',
				agentId: seq % 2 === 0 ? 'alice' : 'bob',
				phase: 'coordination',
				text: 'token ',
				runId: RUN_ID,
				seq,
				t: seq,
			});
		}
		expect(state.agents.alice!.textDropped).toBeGreaterThan(0);
		// Its time bound (a per-delta copy of the state or text would take far longer): test/bench/timeBounds.bench.ts.
	});
});
