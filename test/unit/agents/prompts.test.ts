import { describe, expect, it } from 'vitest';
import { answerThenVote, read, runTeam } from '../../fakes/team.js';
import { ManualClock } from '../../support/manualClock.js';

describe('coordination prompts', () => {
	it('carry the question, the history, and every answer as <answer id="agentN">', async () => {
		const run = await runTeam(
			[
				{ id: 'alice', handler: answerThenVote('Alpha answer') },
				{ id: 'bob', handler: answerThenVote('Beta answer'), options: { latencyMs: 20 } },
			],
			{
				clock: new ManualClock(),
				question: 'Which sort is stable?',
				history: [{ question: 'Earlier question', answer: 'Earlier answer' }],
				settings: { staleCallRestartFraction: 0 },
			},
		);
		const requests = run.models.get('alice')!.requests.filter((r) => !read.isPresentation(r));
		const first = requests[0]!.messages[0]!.content;
		expect(first).toContain('<ORIGINAL MESSAGE>\nWhich sort is stable?\n</ORIGINAL MESSAGE>');
		expect(first).toContain(
			'<CONVERSATION_HISTORY>\nUser: Earlier question\nAssistant: Earlier answer\n</CONVERSATION_HISTORY>',
		);
		expect(first).toContain('(no answers yet)');
		const later = requests.at(-1)!.messages[0]!.content;
		expect(later).toContain('<answer id="agent1">\nAlpha answer\n</answer>');
		expect(later).toContain('<answer id="agent2">\nBeta answer\n</answer>');
		expect(requests.at(-1)!.system).toContain('exactly one workflow call');
	});

	for (const [sensitivity, phrase] of [
		['lenient', 'addresses the original message well, vote for it'],
		['balanced', 'comprehensive, accurate and complete'],
		['strict', 'every aspect and edge case'],
	] as const) {
		it(`voting_sensitivity ${sensitivity} changes the system prompt`, async () => {
			const run = await runTeam(
				[
					{ id: 'alice', handler: answerThenVote('A') },
					{ id: 'bob', handler: answerThenVote('B') },
				],
				{ clock: new ManualClock(), settings: { votingSensitivity: sensitivity } },
			);
			expect(run.models.get('alice')!.requests[0]!.system).toContain(phrase);
		});
	}

	it('tells the model about novelty only when it is enforced', async () => {
		const strict = await runTeam(
			[
				{ id: 'a', handler: answerThenVote('A') },
				{ id: 'b', handler: answerThenVote('B') },
			],
			{ clock: new ManualClock(), settings: { answerNoveltyRequirement: 'strict' } },
		);
		expect(strict.models.get('a')!.requests[0]!.system).toContain('near-copies are rejected');
		const lenient = await runTeam(
			[
				{ id: 'a', handler: answerThenVote('A') },
				{ id: 'b', handler: answerThenVote('B') },
			],
			{ clock: new ManualClock() },
		);
		expect(lenient.models.get('a')!.requests[0]!.system).not.toContain('rejected');
	});
});
