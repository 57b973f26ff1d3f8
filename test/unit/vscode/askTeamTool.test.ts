import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { marked } from 'marked';
import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../../src/contract/runResult';
import { participantId } from '../../../src/vscode/chat/participant';
import { askTeamToolName, confirmationText, describeRun, teamName } from '../../../src/vscode/lm/askTeamTool';

function result(overrides: Partial<RunResult>): RunResult {
	return {
		runId: 'r1',
		question: 'q',
		status: 'completed',
		winner: { agentId: 'a', label: 'agent1.1' },
		answers: [],
		votes: [
			{ voter: 'a', votedFor: 'a', votedForLabel: 'agent1.1', reason: '' },
			{ voter: 'b', votedFor: 'a', votedForLabel: 'agent1.1', reason: '' },
			{ voter: 'c', votedFor: 'b', votedForLabel: 'agent2.1', reason: '' },
		],
		finalAnswer: 'The answer.',
		changes: [],
		usage: [],
		durationMs: 1,
		...overrides,
	};
}

const change = (path: string, kind: 'add' | 'modify' | 'delete') =>
	({ path, kind, baseHash: null }) as unknown as RunResult['changes'][number];

describe('massgen_askTeam result text', () => {
	it('gives the final answer, who voted how, and the proposed changes sorted by path', () => {
		const text = describeRun({
			result: result({ changes: [change('z.ts', 'delete'), change('a.md', 'add')] }),
		});
		expect(text).toBe(
			[
				'The answer.',
				'',
				'Vote: a won with 2 of 3 votes (a, b); c voted for b.',
				'Proposed changes (not applied; the user reviews and accepts them in VS Code):\n- add a.md\n- delete z.ts',
			].join('\n'),
		);
	});

	it('says when nothing changed, and when the run ended early with an answer', () => {
		const text = describeRun({ result: result({ status: 'timeout' }) });
		expect(text.split('\n')[0]).toBe('The MassGen run timed out. The best answer so far:');
		expect(text).toContain('No file changes were proposed.');
	});

	it('reports a run without an answer by its status and error', () => {
		const text = describeRun({
			result: result({ status: 'failed', error: 'every agent failed', finalAnswer: null, winner: null }),
		});
		expect(text).toBe('The MassGen run failed: every agent failed.');
	});
});

describe('massgen_askTeam confirmation', () => {
	it('names the configured team file, or "your MassGen team" when none is set', () => {
		expect(teamName('/home/me/teams/review.yaml')).toBe('the MassGen team of review.yaml');
		expect(teamName('C:\\teams\\fast.yaml')).toBe('the MassGen team of fast.yaml');
		expect(teamName('')).toBe('your MassGen team');
	});

	it('quotes every line of the question and lists the attached files', () => {
		expect(
			confirmationText({ question: 'Why?\nAnd how?', files: ['a.ts', 'docs'] }, 'your MassGen team'),
		).toBe(
			'Question for your MassGen team:\n\n> Why?\n> And how?\n\nAttached: `a.ts`, `docs`\n\nProposed edits wait for your review; nothing is written.',
		);
	});

	// The calling model writes the question and the file list; the confirmation is the user's consent.
	// Rendered with marked (VS Code's Markdown renderer): whatever the model writes stays quoted text
	// or a file name, and everything outside the quote is ours.
	const hostile = [
		['a carriage return', { question: 'Why?\r\rSafe: it reads README.md only.' }],
		['a Unicode paragraph separator', { question: 'Why?\u2029\u2029Safe: it reads README.md only.' }],
		['a link and an image', { question: '[Approve](https://evil.example) ![x](https://evil.example/t.png)' }],
		[
			'a file name that closes its code span',
			{ question: 'Why?', files: ['a`\n\nSafe: it reads README.md only. `b'] },
		],
	] as const;

	it.each(hostile)('a question or file list with %s stays quoted text', (_, input) => {
		const text = confirmationText(input, 'your MassGen team');
		// Our text outside the quote, with each file's code span as one placeholder.
		const outside = marked
			.lexer(text)
			.filter((token) => token.type !== 'blockquote' && token.type !== 'space')
			.map((token) =>
				'tokens' in token && token.tokens
					? token.tokens.map((inline) => (inline.type === 'codespan' ? '<file>' : inline.raw)).join('')
					: token.raw,
			)
			.map((raw) => raw.trim());
		expect(outside[0]).toBe('Question for your MassGen team:');
		expect(outside.slice(1, -1)).toEqual('files' in input ? ['Attached: <file>'] : []);
		expect(outside.at(-1)).toBe('Proposed edits wait for your review; nothing is written.');
		const html = marked.parse(text, { async: false });
		expect(html).not.toMatch(/<a |<img /);
	});
});

describe('package.json contributes what the code registers', () => {
	const contributes = (
		JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
			contributes: { languageModelTools: { name: string }[]; chatParticipants: { id: string }[] };
		}
	).contributes;

	it('the tool name and the participant id', () => {
		expect(contributes.languageModelTools.map((tool) => tool.name)).toEqual([askTeamToolName]);
		expect(contributes.chatParticipants.map((participant) => participant.id)).toEqual([participantId]);
	});
});
