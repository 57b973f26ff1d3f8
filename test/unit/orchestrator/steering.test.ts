import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../../src/core/providers/spec/model.js';
import type { Orchestrator } from '../../../src/core/orchestrator/orchestrator.js';
import type { ScriptedHandler } from '../../../src/core/providers/vendors/scriptedModel.js';
import { answer, answerThenVote, lookFirst, read, runTeam, vote } from '../../fakes/team.js';
import { ManualClock } from '../../support/manualClock.js';

const says = (request: ChatRequest, text: string) =>
	request.messages.filter((m) => typeof m.content === 'string' && m.content.includes(text)).length;
const coordinationRequests = (run: Awaited<ReturnType<typeof runTeam>>, id: string) =>
	run.models.get(id)!.requests.filter((request) => !read.isPresentation(request));

/** `handler`, which also calls `act` when its `at`-th call (1-based) starts: mid-run, inside a model call. */
function actingAt(at: number, act: () => void, handler: ScriptedHandler): ScriptedHandler {
	return (request, call) => {
		if (call + 1 === at && !read.isPresentation(request)) act();
		return handler(request, call);
	};
}

describe('steering a running team', () => {
	it("a message to the team reaches every live agent's next request as the user's, once, and is kept", async () => {
		let orchestrator!: Orchestrator;
		const sent: unknown[] = [];
		const steer = () => sent.push(orchestrator.steer({ text: 'Use tabs, not spaces.' }));
		const run = await runTeam(
			[
				{ id: 'alice', handler: actingAt(1, steer, answerThenVote('A')), options: { latencyMs: 10 } },
				{ id: 'bob', handler: answerThenVote('B'), options: { latencyMs: 20 } },
			],
			{ clock: new ManualClock(), control: (o) => (orchestrator = o) },
		);
		expect(sent).toEqual([{ ok: true, id: 1, agents: ['alice', 'bob'] }]);
		expect(run.of('steer')).toMatchObject([
			{ id: 1, text: 'Use tabs, not spaces.', agents: ['alice', 'bob'], noteOnly: false },
		]);
		for (const id of ['alice', 'bob']) {
			const [first, ...later] = run.models.get(id)!.requests;
			// Built before the message was sent; every later request carries it exactly once, marked.
			expect(says(first!, 'Use tabs')).toBe(0);
			expect(later.length).toBeGreaterThan(0);
			for (const request of later) expect(says(request, 'Use tabs')).toBe(1);
			expect(says(later[0]!, 'MESSAGE FROM THE USER')).toBe(1);
		}
		const delivered = run.of('steer-delivered');
		expect(new Set(delivered.map((e) => e.agentId))).toEqual(new Set(['alice', 'bob']));
		expect(delivered.some((e) => e.phase === 'presentation')).toBe(true);
		expect(run.result.steering).toEqual([
			{ id: 1, text: 'Use tabs, not spaces.', noteOnly: false, t: expect.any(Number) },
		]);
		expect(run.result.status).toBe('completed');
	});

	it('a message to one agent reaches only that agent', async () => {
		let orchestrator!: Orchestrator;
		const steer = () => orchestrator.steer({ text: 'Check the tests first.', agentId: 'bob' });
		const run = await runTeam(
			[
				{ id: 'alice', handler: actingAt(1, steer, answerThenVote('A')), options: { latencyMs: 10 } },
				{ id: 'bob', handler: answerThenVote('B'), options: { latencyMs: 20 } },
			],
			{ clock: new ManualClock(), control: (o) => (orchestrator = o) },
		);
		expect(run.models.get('alice')!.requests.every((r) => says(r, 'Check the tests') === 0)).toBe(true);
		expect(
			run.models
				.get('bob')!
				.requests.slice(1)
				.every((r) => says(r, 'Check the tests') === 1),
		).toBe(true);
		expect(run.of('steer')[0]).toMatchObject({ agents: ['bob'], targetAgentId: 'bob' });
		expect(run.of('steer-delivered').every((e) => e.agentId === 'bob')).toBe(true);
	});

	const votingTeam = (steer: () => void) => [
		{ id: 'alice', handler: answerThenVote('A'), options: { latencyMs: 10 } },
		{ id: 'bob', handler: answerThenVote('B'), options: { latencyMs: 20 } },
		// Its vote call starts when every answer is in: the others' votes are in flight or cast.
		{ id: 'carol', handler: actingAt(2, steer, answerThenVote('C')), options: { latencyMs: 30 } },
	];

	it('a message takes the votes away: every counted vote was decided with it', async () => {
		let orchestrator!: Orchestrator;
		const run = await runTeam(
			votingTeam(() => orchestrator.steer({ text: 'Prefer the shortest answer.' })),
			{ clock: new ManualClock(), control: (o) => (orchestrator = o) },
		);
		expect(run.result.status).toBe('completed');
		expect(run.result.votes).toHaveLength(3);
		for (const id of ['alice', 'bob', 'carol']) {
			expect(says(coordinationRequests(run, id).at(-1)!, 'Prefer the shortest answer.')).toBe(1);
		}
		// A vote decided before the message was not counted; its voter was told why.
		const told = ['alice', 'bob', 'carol'].flatMap((id) =>
			coordinationRequests(run, id).filter((r) => says(r, 'the user sent the team a message') > 0),
		);
		expect(told.length).toBeGreaterThan(0);
	});

	it('a note keeps the votes: no agent decides again because of it', async () => {
		const counts = async (noteOnly: boolean) => {
			let orchestrator!: Orchestrator;
			const run = await runTeam(
				votingTeam(() => orchestrator.steer({ text: 'FYI: CI is slow today.', noteOnly })),
				{ clock: new ManualClock(), control: (o) => (orchestrator = o) },
			);
			expect(run.result.votes).toHaveLength(3);
			return ['alice', 'bob', 'carol'].map((id) => coordinationRequests(run, id).length);
		};
		const note = await counts(true);
		const message = await counts(false);
		expect(note).toEqual([2, 2, 2]);
		expect(message.reduce((a, b) => a + b)).toBeGreaterThan(6);
	});

	it('refuses an empty or oversize message, an unknown or stopped agent, and a run that is not going', async () => {
		let orchestrator!: Orchestrator;
		const outcomes: unknown[] = [];
		const act = () => {
			orchestrator.stopAgent('bob');
			outcomes.push(
				orchestrator.steer({ text: '   ' }),
				orchestrator.steer({ text: 'x'.repeat(8_001) }),
				orchestrator.steer({ text: 'hi', agentId: 'mallory' }),
				orchestrator.steer({ text: 'hi', agentId: 'bob' }),
			);
		};
		const run = await runTeam(
			[
				{ id: 'alice', handler: actingAt(1, act, answerThenVote('A')), options: { latencyMs: 10 } },
				{ id: 'bob', handler: answerThenVote('B'), options: { latencyMs: 20 } },
			],
			{ clock: new ManualClock(), control: (o) => (orchestrator = o) },
		);
		expect(outcomes).toEqual([
			{ ok: false, reason: 'The message is empty.' },
			{ ok: false, reason: 'The message is too long (8001 characters; at most 8000).' },
			{ ok: false, reason: 'This team has no agent "mallory" (it has alice, bob).' },
			{ ok: false, reason: 'bob is out of the run.' },
		]);
		expect(run.of('steer')).toEqual([]);
		expect(orchestrator.steer({ text: 'too late' })).toEqual({ ok: false, reason: 'The run is not going.' });
		expect(orchestrator.finishNow()).toEqual({ ok: false, reason: 'The run is not going.' });
	});
});

describe('finish now', () => {
	it('ends coordination at once; with no votes the most recent answer presents; no new round starts', async () => {
		const finished: unknown[] = [];
		const clock = new ManualClock();
		const run = await runTeam(
			[
				{ id: 'alice', handler: answerThenVote('A'), options: { latencyMs: 10 } },
				{ id: 'bob', handler: answerThenVote('B'), options: { latencyMs: 20 } },
				{ id: 'carol', handler: answerThenVote('C'), options: { latencyMs: 5_000 } },
			],
			{
				clock,
				// After alice's and bob's answers, while carol still drafts hers.
				control: (o) => clock.setTimer(25, () => finished.push(o.finishNow())),
			},
		);
		expect(finished).toEqual([{ ok: true }]);
		expect(run.result.coordination).toEqual({ ended: 'finished-by-user' });
		expect(run.of('coordination-end')).toMatchObject([{ ended: 'finished-by-user' }]);
		expect(run.result.winner).toEqual({ agentId: 'bob', label: 'agent2.1' });
		expect(run.of('winner-selected')[0]).toMatchObject({ reason: 'no-votes' });
		expect(run.result.finalAnswer).toBe('final:B');
		// carol's slow first call was stopped (counted), and nobody started another round.
		expect(run.of('call-aborted').filter((e) => e.agentId === 'carol')).toHaveLength(1);
		const finishAt = run.of('coordination-end')[0]!.seq;
		expect(run.of('round-start').filter((e) => e.seq > finishAt)).toEqual([]);
	});

	it('before any answer: the first answer ends coordination and presents', async () => {
		let orchestrator!: Orchestrator;
		const run = await runTeam(
			[
				{
					id: 'alice',
					handler: actingAt(1, () => orchestrator.finishNow(), answerThenVote('A')),
					options: { latencyMs: 10 },
				},
				{ id: 'bob', handler: answerThenVote('B'), options: { latencyMs: 5_000 } },
			],
			{ clock: new ManualClock(), control: (o) => (orchestrator = o) },
		);
		expect(run.result.coordination?.ended).toBe('finished-by-user');
		expect(run.result.winner?.agentId).toBe('alice');
		expect(run.result.answers.map((a) => a.agentId)).toEqual(['alice']);
	});

	it('is refused once the winner presents', async () => {
		let orchestrator!: Orchestrator;
		const late: unknown[] = [];
		const coordinating = answerThenVote('A');
		const alice: ScriptedHandler = (request, call) => {
			if (read.isPresentation(request)) {
				late.push(orchestrator.finishNow(), orchestrator.steer({ text: 'Add a summary.', agentId: 'bob' }));
				return { text: 'final' };
			}
			return coordinating(request, call);
		};
		await runTeam(
			[
				{ id: 'alice', handler: alice },
				{ id: 'bob', handler: lookFirst(answerThenVote('B', () => 'agent1')) },
			],
			{ clock: new ManualClock(), control: (o) => (orchestrator = o) },
		);
		expect(late).toEqual([
			{ ok: false, reason: 'The team has finished coordinating: alice is presenting the answer.' },
			{ ok: false, reason: 'bob is not presenting: alice is.' },
		]);
	});
});

describe('quorum', () => {
	// a1 answers; a2, a3 look first and then vote for it; a4, a5 look and then take 10 s to decide.
	const team = () => [
		{ id: 'a1', handler: answerThenVote('A1'), options: { latencyMs: 10 } },
		...['a2', 'a3', 'a4', 'a5'].map((id, i) => {
			let call = 0;
			const slow = i >= 2;
			const handler: ScriptedHandler = (request) => {
				if (read.isPresentation(request)) return { text: 'x' };
				call++;
				if (call === 1) return { toolCalls: [{ name: 'list_directory', arguments: {} }], latencyMs: 30 };
				const options = read.voteOptions(request);
				return options.length ? { ...vote(options[0]!), latencyMs: slow ? 10_000 : 10 } : answer(id);
			};
			return { id, handler };
		}),
	];

	it('quorum 3 ends coordination without waiting for the slow two: their calls stopped, the saving shown', async () => {
		const run = await runTeam(team(), { clock: new ManualClock(), settings: { quorum: 3 } });
		expect(run.result.status).toBe('completed');
		expect(run.result.winner?.agentId).toBe('a1');
		expect(run.result.coordination).toEqual({
			ended: 'quorum',
			quorum: { required: 3, votes: 3, label: 'agent1.1' },
			saved: { callsStopped: 2, agentsNotWaitedFor: ['a4', 'a5'], estimatedCostUsd: null },
		});
		expect(
			run
				.of('call-aborted')
				.map((e) => e.agentId)
				.sort(),
		).toEqual(['a4', 'a5']);
		expect(run.result.durationMs).toBeLessThan(1_000);
	});

	it('majority of 5 is 3; with quorum off the run waits for every vote (control)', async () => {
		const majority = await runTeam(team(), { clock: new ManualClock(), settings: { quorum: 'majority' } });
		expect(majority.result.coordination?.quorum).toEqual({ required: 3, votes: 3, label: 'agent1.1' });
		const off = await runTeam(team(), { clock: new ManualClock() });
		expect(off.result.coordination).toEqual({ ended: 'consensus' });
		expect(off.result.votes).toHaveLength(5);
		expect(off.of('call-aborted')).toEqual([]);
		expect(off.result.durationMs).toBeGreaterThanOrEqual(10_000);
	});
});
