import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../../src/core/providers/spec/model.js';
import type { ScriptedReply } from '../../../src/core/providers/vendors/scriptedModel.js';
import { answerThenVote, read, runTeam } from '../../fakes/team.js';
import { ManualClock } from '../../support/manualClock.js';

describe('agent failures are contained', () => {
	it('an agent that always fails is killed after the limit and the run completes without it', async () => {
		const run = await runTeam([
			{ id: 'alice', handler: answerThenVote('A') },
			{ id: 'bob', handler: answerThenVote('B') },
			{
				id: 'carol',
				handler: () => ({ fail: { kind: 'server', status: 500, message: 'upstream exploded (500)' } }),
			},
		]);
		const errors = run.of('agent-error').filter((e) => e.agentId === 'carol');
		expect(errors.map((e) => e.failures)).toEqual([1, 2, 3]);
		expect(errors[0]).toMatchObject({ kind: 'server', retryable: true });
		expect(run.of('agent-killed')).toEqual([
			expect.objectContaining({
				agentId: 'carol',
				reason: expect.stringContaining('failed 3 times in a row'),
			}),
		]);
		expect(run.models.get('carol')!.requests).toHaveLength(3);
		expect(run.result.status).toBe('completed');
		expect(run.result.votes.map((v) => v.voter).sort()).toEqual(['alice', 'bob']);
	});

	it('an auth error kills the agent at once, with the provider message', async () => {
		const run = await runTeam([
			{ id: 'alice', handler: answerThenVote('A') },
			{
				id: 'bob',
				handler: () => ({ fail: { kind: 'auth', status: 401, message: 'ANTHROPIC_API_KEY rejected (401)' } }),
			},
		]);
		expect(run.models.get('bob')!.requests).toHaveLength(1);
		expect(run.of('agent-killed')[0]).toMatchObject({
			agentId: 'bob',
			reason: 'ANTHROPIC_API_KEY rejected (401)',
		});
		expect(run.result.winner?.agentId).toBe('alice');
	});

	it('retries honour retry-after and continue the same conversation', async () => {
		const clock = new ManualClock();
		const times: number[] = [];
		let call = 0;
		const normal = answerThenVote('Flaky answer');
		const flaky = (request: ChatRequest): ScriptedReply => {
			if (read.isPresentation(request)) return { text: 'final' };
			times.push(clock.now());
			call++;
			if (call === 1) return { fail: { kind: 'rate-limit', status: 429, retryAfterMs: 120 } };
			return normal(request, call) as ScriptedReply;
		};
		const run = await runTeam(
			[
				{ id: 'alice', handler: flaky },
				{ id: 'bob', handler: answerThenVote('B') },
			],
			{ clock },
		);
		expect(times[1]! - times[0]!).toBe(120);
		expect(run.of('agent-error')[0]).toMatchObject({ agentId: 'alice', kind: 'rate-limit', failures: 1 });
		expect(run.of('agent-killed')).toEqual([]);
		const requests = run.models.get('alice')!.requests;
		expect(requests[1]!.messages).toEqual(requests[0]!.messages);
		expect(run.result.status).toBe('completed');
	});

	it('when every agent fails the run ends cleanly as failed, naming each error', async () => {
		const run = await runTeam([
			{ id: 'alice', handler: () => ({ fail: { kind: 'auth', message: 'OPENAI_API_KEY rejected (401)' } }) },
			{ id: 'bob', handler: () => ({ fail: { kind: 'network', message: 'connection refused' } }) },
		]);
		expect(run.result.status).toBe('failed');
		expect(run.result.error).toContain('alice: OPENAI_API_KEY rejected (401)');
		expect(run.result.error).toContain('bob: connection refused');
		expect(run.events.at(-1)).toMatchObject({ type: 'run-end', status: 'failed' });
		expect(run.of('final-answer')).toEqual([]);
	});

	it('an agent over its turn timeout is killed and leaves the vote', async () => {
		const clock = new ManualClock();
		const run = await runTeam(
			[
				{ id: 'alice', handler: answerThenVote('A') },
				{ id: 'bob', handler: answerThenVote('B') },
				{ id: 'slow', handler: answerThenVote('S'), options: { latencyMs: 5_000 } },
			],
			{ settings: { agentTurnTimeoutMs: 100 }, clock },
		);
		expect(run.of('agent-killed')[0]).toMatchObject({
			agentId: 'slow',
			reason: 'exceeded its turn timeout (0 s)',
		});
		expect(run.result.status).toBe('completed');
		expect(run.result.durationMs).toBe(100);
	});
});

describe('usage and cost', () => {
	it('sums tokens and prices per agent; an unpriced model reports null cost', async () => {
		const price = { input: 1, output: 10 };
		const run = await runTeam(
			[
				{
					id: 'alice',
					handler: answerThenVote('A'),
					options: { usage: { inputTokens: 1_000, outputTokens: 100 } },
					spec: { price },
				},
				{
					id: 'bob',
					handler: answerThenVote('B'),
					options: { usage: { inputTokens: 500, outputTokens: 50 } },
				},
			],
			{ settings: { staleCallRestartFraction: 0 } },
		);
		const alice = run.result.usage.find((u) => u.agentId === 'alice')!;
		const calls = run.models.get('alice')!.requests.length;
		expect(alice.calls).toBe(calls);
		expect(alice.inputTokens).toBe(1_000 * calls);
		expect(alice.costUsd).toBeCloseTo((calls * (1_000 * 1 + 100 * 10)) / 1_000_000, 10);
		expect(run.result.usage.find((u) => u.agentId === 'bob')!.costUsd).toBeNull();
		expect(run.of('usage').filter((e) => e.agentId === 'alice')[0]!.costUsd).toBeCloseTo(0.002, 10);
	});
});
