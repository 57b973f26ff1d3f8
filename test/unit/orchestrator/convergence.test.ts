import { describe, expect, it } from 'vitest';
import { answerThenVote, read, runTeam } from '../../fakes/team.js';

describe('coordination converges', () => {
	it('three agents answer, vote, and the winner presents', async () => {
		const run = await runTeam(
			[
				{ id: 'alice', handler: answerThenVote('A answer', () => 'agent2') },
				{ id: 'bob', handler: answerThenVote('B answer', () => 'agent2') },
				{ id: 'carol', handler: answerThenVote('C answer', () => 'agent1') },
			],
			{ settings: { staleCallRestartFraction: 0 } },
		);
		expect(run.result.status).toBe('completed');
		expect(
			run
				.of('new-answer')
				.map((e) => e.label)
				.sort(),
		).toEqual(['agent1.1', 'agent2.1', 'agent3.1']);
		expect(run.result.winner).toEqual({ agentId: 'bob', label: 'agent2.1' });
		expect(run.result.finalAnswer).toBe('final:B answer');
		expect(run.result.votes).toHaveLength(3);
		expect(run.result.votes.find((v) => v.voter === 'carol')).toMatchObject({
			votedFor: 'alice',
			votedForLabel: 'agent1.1',
		});
		const types = run.events.map((e) => e.type);
		expect(types[0]).toBe('run-start');
		expect(types.at(-1)).toBe('run-end');
		expect(types.indexOf('winner-selected')).toBeLessThan(types.indexOf('presentation-start'));
		expect(types.indexOf('presentation-start')).toBeLessThan(types.indexOf('final-answer'));
		expect(run.of('winner-selected')[0]).toMatchObject({
			agentId: 'bob',
			tally: { bob: 2, alice: 1 },
			reason: 'votes',
		});
		expect(run.events.map((e) => e.seq)).toEqual(run.events.map((_, i) => i));
		// The winner's presentation had no workflow tools and saw every answer under anonymous ids.
		const presentation = run.models.get('bob')!.requests.find(read.isPresentation)!;
		expect(presentation.tools.map((t) => t.name)).not.toContain('vote');
		const prompt = presentation.messages[0]!.content;
		expect(prompt).toContain('<answer id="agent3">\nC answer');
		expect(prompt).toContain('<answer id="agent2" note="(your answer)">');
		expect(prompt).toContain('- for agent1.1: I like agent1');
	});

	it('never shows a config id to any model', async () => {
		const run = await runTeam([
			{
				id: 'alice-secret-id',
				handler: answerThenVote('A answer'),
				spec: { systemMessage: 'You are terse.' },
			},
			{ id: 'bob-secret-id', handler: answerThenVote('B answer') },
		]);
		expect(run.result.status).toBe('completed');
		for (const model of run.models.values()) {
			for (const request of model.requests) expect(read.allText(request)).not.toMatch(/secret-id/);
		}
	});

	it('uses one shuffled anonymous mapping everywhere in the run', async () => {
		let n = 0;
		const random = () => [0.9, 0.1, 0.5][n++ % 3]!;
		const run = await runTeam(
			[
				{ id: 'alice', handler: answerThenVote('A answer') },
				{ id: 'bob', handler: answerThenVote('B answer') },
				{ id: 'carol', handler: answerThenVote('C answer') },
			],
			{ anonymousOrder: 'shuffled', random },
		);
		const mapping = Object.fromEntries(run.of('run-start')[0]!.agents.map((a) => [a.agentId, a.anonId]));
		expect(Object.values(mapping).sort()).toEqual(['agent1', 'agent2', 'agent3']);
		expect(mapping).not.toEqual({ alice: 'agent1', bob: 'agent2', carol: 'agent3' });
		for (const event of run.of('new-answer')) expect(event.label).toBe(`${mapping[event.agentId]}.1`);
		for (const event of run.of('vote')) {
			expect(event.votedFor.split('.')[0]).toBe(mapping[event.votedForAgent]);
		}
	});
});
