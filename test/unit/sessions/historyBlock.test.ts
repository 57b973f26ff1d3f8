import { describe, expect, it } from 'vitest';
import { fitHistory } from '../../../src/core/sessions/fitHistory.js';
import { answerThenVote, read, runTeam } from '../../fakes/team.js';

describe('the conversation history every agent is given', () => {
	it('lists left-out turns by question, keeps the newest whole with what became of its changes, the same for every agent', async () => {
		const history = fitHistory(
			[
				{ question: 'First\nquestion', answer: 'x'.repeat(500) },
				{ question: 'Second question', answer: 'y'.repeat(500), changes: 'rejected' },
				{
					question: 'Third question',
					steering: ['Keep it in one file.'],
					answer: 'Added the parser.',
					changes: 'accepted',
				},
			],
			100,
		);
		const run = await runTeam(
			[
				{ id: 'alice', handler: answerThenVote('Alpha answer') },
				{ id: 'bob', handler: answerThenVote('Beta answer') },
			],
			{ question: 'Now add tests', history, settings: { staleCallRestartFraction: 0 } },
		);
		const block = (id: string) => {
			const first = run.models.get(id)!.requests.find((r) => !read.isPresentation(r))!.messages[0]!.content;
			return /<CONVERSATION_HISTORY>[\s\S]*<\/CONVERSATION_HISTORY>/.exec(first)?.[0];
		};
		expect(block('alice')).toBe(
			[
				'<CONVERSATION_HISTORY>',
				'(2 earlier turn(s) left out: "First question"; "Second question")',
				'User: Third question',
				'User (while the team worked): Keep it in one file.',
				'Assistant: Added the parser.',
				'(the user accepted its file changes.)',
				'</CONVERSATION_HISTORY>',
			].join('\n'),
		);
		expect(block('bob')).toBe(block('alice'));
	});

	it('cuts the newest answer when it alone is over the budget', () => {
		const [only] = fitHistory([{ question: 'q', answer: 'z'.repeat(50) }], 11);
		expect(only!.answer).toBe(`${'z'.repeat(10)}\n[… answer cut to 10 characters]`);
	});
});
