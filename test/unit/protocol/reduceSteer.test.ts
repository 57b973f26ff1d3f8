import { describe, expect, it } from 'vitest';
import type { RunEventBody } from '../../../src/contract/runEvents.js';
import { reduceRunEvents } from '../../../src/protocol/reduceRun.js';
import { BY_USER_MESSAGE, initialRunState, MAX_USER_MESSAGES } from '../../../src/protocol/runState.js';
import { stamp } from './eventFixtures.js';

const fold = (bodies: RunEventBody[]) => reduceRunEvents(initialRunState(), stamp(bodies));

const start: RunEventBody = {
	type: 'run-start',
	question: 'q',
	workspace: '/ws',
	agents: [
		{ agentId: 'alice', anonId: 'agent1', provider: 'openai', model: 'gpt-4o' },
		{ agentId: 'bob', anonId: 'agent2', provider: 'claude', model: 'sonnet' },
	],
};
const answered: RunEventBody[] = [
	{ type: 'new-answer', agentId: 'alice', label: 'agent1.1', content: 'A' },
	{
		type: 'vote',
		agentId: 'alice',
		voter: 'alice',
		votedFor: 'agent1.1',
		votedForAgent: 'alice',
		reason: 'mine',
	},
	{ type: 'vote', agentId: 'bob', voter: 'bob', votedFor: 'agent1.1', votedForAgent: 'alice', reason: 'ok' },
];
const steer = (id: number, agents: string[], noteOnly: boolean, targetAgentId?: string): RunEventBody => ({
	type: 'steer',
	id,
	text: `message ${id}`,
	agents,
	noteOnly,
	...(targetAgentId ? { targetAgentId } : {}),
});

describe('reduceRun: the user steering the team', () => {
	it('lists a message to one agent in its lane only, pending until delivered', () => {
		const sent = fold([start, steer(1, ['bob'], false, 'bob')]);
		expect(sent.agents.alice!.userMessages).toBeUndefined();
		expect(sent.agents.bob!.userMessages).toEqual([
			{ id: 1, text: 'message 1', toAll: false, noteOnly: false, t: 10, delivered: false },
		]);
		const read = fold([
			start,
			steer(1, ['bob'], false, 'bob'),
			{ type: 'steer-delivered', id: 1, agentId: 'bob', phase: 'coordination' },
		]);
		expect(read.agents.bob!.userMessages?.map((m) => m.delivered)).toEqual([true]);
	});

	it('a message to all: each lane marks its own delivery', () => {
		const state = fold([
			start,
			steer(1, ['alice', 'bob'], true),
			{ type: 'steer-delivered', id: 1, agentId: 'alice', phase: 'coordination' },
		]);
		expect(state.agents.alice!.userMessages).toMatchObject([
			{ toAll: true, noteOnly: true, delivered: true },
		]);
		expect(state.agents.bob!.userMessages).toMatchObject([{ toAll: true, delivered: false }]);
	});

	it('takes the reached agents’ votes away (marked as the user’s doing); a note leaves them', () => {
		const withdrawn = fold([start, ...answered, steer(1, ['bob'], false, 'bob')]);
		expect(Object.keys(withdrawn.votes)).toEqual(['alice']);
		expect(withdrawn.tally).toEqual({ alice: 1 });
		expect(withdrawn.agents.bob!.state).toBe('idle');
		expect(withdrawn.voteHistory.find((v) => v.voter === 'bob')?.invalidatedBy).toBe(BY_USER_MESSAGE);

		const noted = fold([start, ...answered, steer(1, ['alice', 'bob'], true)]);
		expect(Object.keys(noted.votes).sort()).toEqual(['alice', 'bob']);
		expect(noted.tally).toEqual({ alice: 2 });
	});

	it('leaves the votes once a winner is chosen (a message to the presenter)', () => {
		const state = fold([
			start,
			...answered,
			{ type: 'winner-selected', agentId: 'alice', label: 'agent1.1', tally: { alice: 2 }, reason: 'votes' },
			steer(1, ['alice'], false, 'alice'),
		]);
		expect(Object.keys(state.votes).sort()).toEqual(['alice', 'bob']);
		expect(state.agents.alice!.userMessages).toHaveLength(1);
	});

	it('ignores a delivery it has no message for, and keeps at most MAX_USER_MESSAGES per lane', () => {
		const stray = fold([start, { type: 'steer-delivered', id: 9, agentId: 'bob', phase: 'coordination' }]);
		expect(stray.agents.bob!.userMessages).toBeUndefined();
		const many = fold([
			start,
			...Array.from({ length: MAX_USER_MESSAGES + 5 }, (_, i) => steer(i + 1, ['bob'], true, 'bob')),
		]);
		const kept = many.agents.bob!.userMessages!;
		expect(kept).toHaveLength(MAX_USER_MESSAGES);
		expect(kept[0]!.id).toBe(6);
		expect(kept.at(-1)!.id).toBe(MAX_USER_MESSAGES + 5);
	});

	it('records why coordination ended and what a quorum saved; a restart clears it', () => {
		const end: RunEventBody = {
			type: 'coordination-end',
			ended: 'quorum',
			quorum: { required: 3, votes: 3, label: 'agent1.1' },
			saved: { callsStopped: 2, agentsNotWaitedFor: ['dave', 'erin'], estimatedCostUsd: 0.012 },
		};
		const ended = fold([start, end]);
		expect(ended.coordinationEnd).toEqual({
			reason: 'quorum',
			quorum: { required: 3, votes: 3, label: 'agent1.1' },
			saved: { callsStopped: 2, agentsNotWaitedFor: ['dave', 'erin'], estimatedCostUsd: 0.012 },
		});
		const again = fold([start, end, { type: 'attempt-start', attempt: 2, reason: 'r', instructions: '' }]);
		expect(again.coordinationEnd).toBeUndefined();
		expect(fold([start, { type: 'coordination-end', ended: 'finished-by-user' }]).coordinationEnd).toEqual({
			reason: 'finished-by-user',
		});
	});
});
