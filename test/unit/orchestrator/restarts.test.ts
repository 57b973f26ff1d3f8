import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../../src/core/providers/spec/model.js';
import type { ScriptedReply } from '../../../src/core/providers/vendors/scriptedModel.js';
import { answer, answerThenVote, read, runTeam, vote } from '../../fakes/team.js';
import { ManualClock } from '../../support/manualClock.js';

/** Round 1 answers; round 2 replies with `second` (a vote, unless told otherwise); then votes for the latest. */
function voter(content: string, second: (request: ChatRequest) => ScriptedReply) {
	let call = 0;
	return (request: ChatRequest): ScriptedReply => {
		if (read.isPresentation(request)) return { text: `final:${content}` };
		call++;
		if (call === 1) return answer(content);
		if (call === 2) return second(request);
		return vote(read.voteOptions(request).at(-1)!);
	};
}

/** Answers, revises once after `reviseAfterMs`, then votes for its revision. */
function reviser(reviseAfterMs: number) {
	let call = 0;
	return (request: ChatRequest): ScriptedReply => {
		if (read.isPresentation(request)) return { text: 'final:B2' };
		call++;
		if (call === 1) return answer('B answer');
		if (call === 2) return { ...answer('B answer, revised'), latencyMs: reviseAfterMs };
		return vote(read.voteOptions(request).find((id) => id === 'agent2') ?? 'agent2');
	};
}

describe('restarts: a call is dropped only when re-issuing it is cheaper', () => {
	it.each([
		['1 ms', 1],
		['50 ms', 50],
		['1.5 s', 1_500],
	])('answers landing %s apart are all accepted in one round each', async (_label, gapMs) => {
		const run = await runTeam(
			[
				{ id: 'alice', handler: answerThenVote('A answer'), options: { latencyMs: 100 } },
				{ id: 'bob', handler: answerThenVote('B answer'), options: { latencyMs: 100 + gapMs } },
				{ id: 'carol', handler: answerThenVote('C answer'), options: { latencyMs: 100 + gapMs / 2 } },
			],
			{ clock: new ManualClock() },
		);
		expect(run.result.status).toBe('completed');
		expect(
			run
				.of('new-answer')
				.map((e) => e.label)
				.sort(),
		).toEqual(['agent1.1', 'agent2.1', 'agent3.1']);
		expect(run.of('call-aborted')).toEqual([]);
		// Every vote was cast on the full snapshot: answer, vote, presentation = 2N + 1 requests.
		const requests = [...run.models.values()].reduce((sum, model) => sum + model.requests.length, 0);
		expect(requests).toBe(7);
		expect(
			run
				.of('round-start')
				.filter((e) => e.round === 2)
				.map((e) => e.snapshot.length),
		).toEqual([3, 3, 3]);
		expect(run.of('votes-invalidated')).toEqual([]);
	});

	it('a first call is never dropped: the answer it was about to deliver is accepted', async () => {
		const run = await runTeam(
			[
				{ id: 'alice', handler: answerThenVote('A answer'), options: { latencyMs: 150 } },
				{ id: 'bob', handler: answerThenVote('B answer'), options: { latencyMs: 10 } },
			],
			{ clock: new ManualClock() },
		);
		expect(run.of('new-answer').map((e) => `${e.agentId}:${e.label}`)).toEqual([
			'bob:agent2.1',
			'alice:agent1.1',
		]);
		expect(run.of('call-aborted')).toEqual([]);
		expect(run.result.usage.map((u) => u.abortedCalls)).toEqual([0, 0]);
	});

	it('a young call with no output is dropped and re-issued with the update, in the same round', async () => {
		// alice's first output took 1 s; bob's revision lands 20 ms into her vote, far under half of it.
		const run = await runTeam(
			[
				{
					id: 'alice',
					handler: voter('A answer', () => ({ ...vote('agent1'), latencyMs: 300 })),
					options: { latencyMs: 1_000 },
				},
				{ id: 'bob', handler: reviser(20), options: { latencyMs: 200 } },
			],
			{ clock: new ManualClock() },
		);
		const aborted = run.of('call-aborted');
		expect(aborted).toHaveLength(1);
		expect(aborted[0]).toMatchObject({ agentId: 'alice', reason: 'stale', hadOutput: false });
		expect(aborted[0]!.elapsedMs).toBe(20);
		const requests = run.models.get('alice')!.requests;
		expect(requests[2]!.messages.at(-1)!.content).toContain('UPDATE');
		expect(requests[2]!.messages.at(-1)!.content).toContain('B answer, revised');
		expect(run.of('round-start').filter((e) => e.agentId === 'alice')).toHaveLength(2);
		expect(run.result.usage.find((u) => u.agentId === 'alice')).toMatchObject({ abortedCalls: 1 });
		expect(run.result.winner?.agentId).toBe('bob');
	});

	it('an older call with no output finishes; its stale vote gets the update in the same conversation', async () => {
		// bob's revision lands 160 ms into alice's vote: past half of alice's 200 ms to first output.
		const run = await runTeam(
			[
				{
					id: 'alice',
					handler: voter('A answer', () => ({ ...vote('agent1'), latencyMs: 300 })),
					options: { latencyMs: 200 },
				},
				{ id: 'bob', handler: reviser(160), options: { latencyMs: 200 } },
			],
			{ clock: new ManualClock() },
		);
		expect(run.of('call-aborted')).toEqual([]);
		const afterStale = run.models.get('alice')!.requests[2]!;
		expect(afterStale.messages.at(-1)).toMatchObject({ role: 'tool', toolName: 'vote', isError: true });
		expect(afterStale.messages.at(-1)!.content).toContain('Vote not counted');
		expect(run.of('round-start').filter((e) => e.agentId === 'alice')).toHaveLength(2);
		expect(run.result.winner?.agentId).toBe('bob');
	});

	it('a tool-call-only stream hit by an update mid-way finishes: it had output', async () => {
		// Same timing as the dropped call above, but alice's vote starts streaming its tool call at 10 ms.
		const streamingVote = () => ({ ...vote('agent1'), latencyMs: 300, toolCallsStreamFromMs: 10 });
		const run = await runTeam(
			[
				{ id: 'alice', handler: voter('A answer', streamingVote), options: { latencyMs: 200 } },
				{ id: 'bob', handler: reviser(20), options: { latencyMs: 200 } },
			],
			{ clock: new ManualClock() },
		);
		expect(run.of('call-aborted')).toEqual([]);
		const afterStale = run.models.get('alice')!.requests[2]!;
		expect(afterStale.messages.at(-1)!.content).toContain('Vote not counted');
		expect(run.result.status).toBe('completed');
	});

	it('with the fraction at 0 no call is ever dropped', async () => {
		const run = await runTeam(
			[
				{
					id: 'alice',
					handler: voter('A answer', () => ({ ...vote('agent1'), latencyMs: 300 })),
					options: { latencyMs: 200 },
				},
				{ id: 'bob', handler: reviser(20), options: { latencyMs: 200 } },
			],
			{ clock: new ManualClock(), settings: { staleCallRestartFraction: 0 } },
		);
		expect(run.of('call-aborted')).toEqual([]);
		expect(run.models.get('alice')!.requests[2]!.messages.at(-1)!.content).toContain('Vote not counted');
	});
});

describe('waiting for peers that must answer', () => {
	it('a drafting peer whose turn fails no longer holds the others: the run converges', async () => {
		let bobCalls = 0;
		const bob = (request: ChatRequest): ScriptedReply => {
			if (read.isPresentation(request)) return { text: 'final:B' };
			bobCalls++;
			// Three replies without a workflow call end bob's first turn; his next turn sees alice's answer.
			if (bobCalls <= 3) return { text: 'thinking aloud', latencyMs: 20 };
			return vote(read.voteOptions(request)[0]!);
		};
		const run = await runTeam(
			[
				// alice's answer lands during bob's third attempt, so no attempt of that turn sees it.
				{ id: 'alice', handler: answerThenVote('A answer'), options: { latencyMs: 50 } },
				{ id: 'bob', handler: bob },
			],
			{ clock: new ManualClock(), settings: { coordinationTimeoutMs: 3_000, staleCallRestartFraction: 0 } },
		);
		expect(run.of('agent-error').filter((e) => e.agentId === 'bob' && e.kind === 'workflow')).toHaveLength(1);
		expect(run.result.status).toBe('completed');
		// alice went on as soon as bob's failed turn ended, not after bob's next turn.
		const aliceRound2 = run.of('round-start').find((e) => e.agentId === 'alice' && e.round === 2)!;
		const bobVote = run.of('vote').find((e) => e.agentId === 'bob')!;
		expect(aliceRound2.seq).toBeLessThan(bobVote.seq);
		expect(run.result.votes.map((v) => `${v.voter}:${v.votedForLabel}`).sort()).toEqual([
			'alice:agent1.1',
			'bob:agent1.1',
		]);
	});
});
