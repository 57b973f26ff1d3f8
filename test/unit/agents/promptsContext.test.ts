import { describe, expect, it } from 'vitest';
import type { Attachment } from '../../../src/core/context/attachment.js';
import { evaluationUserMessage } from '../../../src/core/agents/evaluationPrompts.js';
import {
	coordinationUserMessage,
	presentationUserMessage,
	singleAgentUserMessage,
} from '../../../src/core/agents/prompts.js';
import { instructionsSection } from '../../../src/core/context/instructionsSection.js';
import { answerThenVote, read, runTeam } from '../../fakes/team.js';

const attachments: Attachment[] = [
	{ kind: 'file', path: 'src/a.ts', range: { start: 2, end: 3 }, text: 'line 2\nline 3' },
	{
		kind: 'diff',
		source: 'working-tree',
		text: '+new line\n',
		truncated: '[truncated: the first 10 B of 20 B]',
	},
	{ kind: 'text', source: 'stdin', text: 'piped words' },
	{ kind: 'image', path: 'shot.png', mediaType: 'image/png', data: new Uint8Array([1, 2, 3]) },
];

describe('the context section', () => {
	it('is the same in every agent’s first message and in the presentation, before the question', async () => {
		const run = await runTeam(
			[
				{ id: 'alice', handler: answerThenVote('Alpha') },
				{ id: 'bob', handler: answerThenVote('Beta') },
			],
			{ question: 'Why does it fail?', attachments, settings: { staleCallRestartFraction: 0 } },
		);
		const firsts = ['alice', 'bob'].flatMap((id) =>
			run.models.get(id)!.requests.map((request) => ({ request, first: request.messages[0]!.content })),
		);
		const sections = firsts.map(({ first }) =>
			first.slice(first.indexOf('<CONTEXT>'), first.indexOf('</CONTEXT>')),
		);
		expect(new Set(sections).size).toBe(1);
		const section = sections[0]!;
		expect(section).toContain(
			'<attachment kind="file" source="src/a.ts" lines="2-3">\nline 2\nline 3\n</attachment>',
		);
		expect(section).toContain(
			'<attachment kind="diff" source="working-tree">\n+new line\n[truncated: the first 10 B of 20 B]\n</attachment>',
		);
		expect(section).toContain('<attachment kind="text" source="stdin">\npiped words\n</attachment>');
		// The scripted model takes no image inputs: the notice stands in for the image.
		expect(section).toContain(
			'(image/png image, 3 B: not shown: your model takes text only, so you get the other attachments alone)',
		);
		expect(firsts.every(({ request }) => !('images' in request.messages[0]!))).toBe(true);
		for (const { first } of firsts) {
			expect(first.indexOf('</CONTEXT>')).toBeLessThan(first.indexOf('<ORIGINAL MESSAGE>'));
		}
		expect(firsts.some(({ request }) => read.isPresentation(request))).toBe(true);
		expect(run.result.attachments?.map((a) => `${a.kind}:${a.source}`)).toEqual([
			'file:src/a.ts',
			'diff:working-tree',
			'text:stdin',
			'image:shot.png',
		]);
		expect(run.of('run-start')[0]!.attachments).toEqual(run.result.attachments);
		// Records, never contents.
		expect(JSON.stringify(run.result)).not.toContain('piped words');
		expect(JSON.stringify(run.events)).not.toContain('piped words');
	});

	it('is absent without attachments', async () => {
		const run = await runTeam([
			{ id: 'alice', handler: answerThenVote('A') },
			{ id: 'bob', handler: answerThenVote('B') },
		]);
		expect(run.models.get('alice')!.requests[0]!.messages[0]!.content).not.toContain('<CONTEXT>');
		expect(run.result.attachments).toBeUndefined();
		expect(run.of('run-start')[0]!.attachments).toBeUndefined();
	});
});

describe('the project instructions section', () => {
	it('opens the first message of every conversation with the same bytes, and a run of agents carries it', async () => {
		const instructions = {
			files: [{ path: 'AGENTS.md', text: 'Use tabs.\n', truncated: false }],
			skipped: [],
		};
		const context = { attachments: [], images: false, instructions };
		const section = instructionsSection(instructions);
		const snapshot = { version: 0, answers: new Map() };
		const firsts = [
			coordinationUserMessage('Q?', [], snapshot, context),
			presentationUserMessage({
				question: 'Q?',
				history: [],
				answers: [],
				ownAnonId: undefined,
				voteReasons: [],
				context,
			}),
			singleAgentUserMessage('Q?', [], context),
			evaluationUserMessage('Q?', 'final', [], instructions),
		];
		for (const first of firsts) expect(first.startsWith(`${section}\n\n`)).toBe(true);
		expect(coordinationUserMessage('Q?', [], snapshot)).not.toContain('PROJECT INSTRUCTIONS');

		const run = await runTeam(
			[
				{ id: 'alice', handler: answerThenVote('Alpha') },
				{ id: 'bob', handler: answerThenVote('Beta') },
			],
			{ question: 'Q?', instructions, settings: { staleCallRestartFraction: 0 } },
		);
		for (const id of ['alice', 'bob']) {
			for (const request of run.models.get(id)!.requests) {
				expect(request.messages[0]!.content.startsWith(`${section}\n\n`)).toBe(true);
			}
		}
	});
});
