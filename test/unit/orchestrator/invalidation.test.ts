import { describe, expect, it } from 'vitest';
import type { ScriptedReply } from '../../../src/core/providers/vendors/scriptedModel.js';
import { answer, answerThenVote, lookFirst, read, runTeam, vote } from '../../fakes/team.js';
import { ManualClock } from '../../support/manualClock.js';

describe('new answers, votes and updates', () => {
	it('a late answer invalidates earlier votes and restarts the voters', async () => {
		const run = await runTeam(
			[
				{ id: 'alice', handler: answerThenVote('A answer', (o) => o.at(-1)!) },
				{ id: 'bob', handler: answerThenVote('B answer', (o) => o.at(-1)!) },
				{
					id: 'carol',
					handler: lookFirst(answerThenVote('C answer', (o) => o.at(-1)!)),
					options: { latencyMs: 60 },
				},
			],
			{ clock: new ManualClock(), settings: { staleCallRestartFraction: 0 } },
		);
		expect(run.result.status).toBe('completed');
		const invalidated = run.of('votes-invalidated');
		expect(invalidated).toHaveLength(1);
		expect(invalidated[0]!.byLabel).toBe('agent3.1');
		expect([...invalidated[0]!.voters].sort()).toEqual(['alice', 'bob']);
		// Both voters ran again after the invalidation and voted for the new answer.
		const after = run.events.filter((e) => e.seq > invalidated[0]!.seq);
		expect(
			after.filter((e) => e.type === 'round-start').map((e) => (e as { agentId: string }).agentId),
		).toEqual(expect.arrayContaining(['alice', 'bob']));
		expect(run.result.votes.map((v) => v.votedForLabel)).toEqual(['agent3.1', 'agent3.1', 'agent3.1']);
		expect(run.result.winner?.agentId).toBe('carol');
	});

	it('an agent mid-generation gets an UPDATE and continues its conversation (inject-and-continue)', async () => {
		let call = 0;
		const alice = (request: Parameters<typeof read.isPresentation>[0]): ScriptedReply => {
			if (read.isPresentation(request)) return { text: 'final' };
			call++;
			if (call === 1) {
				return {
					reasoning: 'reading first',
					toolCalls: [{ name: 'list_directory', arguments: {} }],
					latencyMs: 60,
				};
			}
			return read.voteOptions(request).length ? vote(read.voteOptions(request)[0]!) : answer('A');
		};
		const run = await runTeam(
			[
				{ id: 'alice', handler: alice },
				{ id: 'bob', handler: answerThenVote('B answer'), options: { latencyMs: 20 } },
			],
			{ clock: new ManualClock() },
		);
		const second = run.models.get('alice')!.requests[1]!;
		expect(second.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user']);
		expect(second.messages[3]!.content).toContain('UPDATE');
		expect(second.messages[3]!.content).toContain('<answer id="agent2">\nB answer');
		expect(read.voteOptions(second)).toEqual(['agent2']);
		const injected = run.of('update-injected').filter((e) => e.agentId === 'alice');
		expect(injected[0]!.labels).toEqual(['agent2.1']);
		// No new round was started for alice to deliver the update.
		const aliceRounds = run
			.of('round-start')
			.filter((e) => e.agentId === 'alice' && e.seq < injected[0]!.seq);
		expect(aliceRounds).toHaveLength(1);
		expect(run.result.status).toBe('completed');
	});

	it('a vote cast on a stale snapshot is not counted; the voter decides again', async () => {
		let call = 0;
		const alice = (request: Parameters<typeof read.isPresentation>[0]): ScriptedReply => {
			if (read.isPresentation(request)) return { text: 'final' };
			call++;
			if (call === 1) return answer('A answer');
			// bob's answer lands 20 ms into this vote, which takes 1 s.
			if (call === 2) return { reasoning: 'thinking', ...vote('agent1'), latencyMs: 1_000 };
			return vote(read.voteOptions(request).at(-1)!);
		};
		const run = await runTeam(
			[
				{ id: 'alice', handler: alice },
				{
					id: 'bob',
					handler: lookFirst(answerThenVote('B answer', (o) => o.at(-1)!)),
					options: { latencyMs: 20 },
				},
			],
			{ clock: new ManualClock(), settings: { staleCallRestartFraction: 0 } },
		);
		const requests = run.models.get('alice')!.requests;
		const afterStale = requests[2]!;
		expect(afterStale.messages.at(-1)).toMatchObject({ role: 'tool', toolName: 'vote', isError: true });
		expect(afterStale.messages.at(-1)!.content).toContain('Vote not counted');
		expect(
			run
				.of('vote')
				.filter((e) => e.agentId === 'alice')
				.map((e) => e.votedFor),
		).toEqual(['agent2.1']);
		expect(run.result.status).toBe('completed');
	});

	it('ties go to the earliest answer', async () => {
		const run = await runTeam(
			[
				{
					id: 'alice',
					handler: answerThenVote('A answer', (o) => (o.includes('agent2') ? 'agent2' : 'agent1')),
				},
				{ id: 'bob', handler: answerThenVote('B answer', () => 'agent1'), options: { latencyMs: 30 } },
			],
			{ clock: new ManualClock(), settings: { staleCallRestartFraction: 0 } },
		);
		expect(run.of('winner-selected')[0]).toMatchObject({
			agentId: 'alice',
			reason: 'tie-break',
			tally: { alice: 1, bob: 1 },
		});
	});

	it('max_rounds ends coordination with the no-votes rule', async () => {
		const run = await runTeam(
			[
				{ id: 'alice', handler: answerThenVote('A answer'), options: { latencyMs: 30 } },
				{ id: 'bob', handler: answerThenVote('B answer') },
			],
			{ clock: new ManualClock(), settings: { maxRounds: 1, staleCallRestartFraction: 0 } },
		);
		expect(run.of('round-start')).toHaveLength(2);
		expect(run.of('winner-selected')[0]).toMatchObject({ agentId: 'bob', reason: 'no-votes' });
		expect(run.result.status).toBe('completed');
	});
});
