import { describe, expect, it } from 'vitest';
import { parseSteerText } from '../../../../src/cli/steer/steerText.js';

describe('parseSteerText: the words of chat lines and inbox files', () => {
	it('plain text goes to every agent and resets votes', () => {
		expect(parseSteerText('  Use Postgres, not SQLite.\n')).toEqual({
			kind: 'steer',
			message: { text: 'Use Postgres, not SQLite.' },
		});
	});

	it('@id and /note in any order, on the line or alone on a first line', () => {
		expect(parseSteerText('@claude_agent focus on tests')).toEqual({
			kind: 'steer',
			message: { text: 'focus on tests', agentId: 'claude_agent' },
		});
		expect(parseSteerText('/note @gemini_agent\nthe API is v2\nsecond line')).toEqual({
			kind: 'steer',
			message: { text: 'the API is v2\nsecond line', agentId: 'gemini_agent', noteOnly: true },
		});
		expect(parseSteerText('/note FYI: CI is green')).toEqual({
			kind: 'steer',
			message: { text: 'FYI: CI is green', noteOnly: true },
		});
	});

	it('/finish alone finishes now; a slash word that is not a directive is text', () => {
		expect(parseSteerText('/finish\n')).toEqual({ kind: 'finish' });
		expect(parseSteerText('/usr/lib is read-only')).toEqual({
			kind: 'steer',
			message: { text: '/usr/lib is read-only' },
		});
		// An e-mail address or a lone @ is text too.
		expect(parseSteerText('mail a@b.c about it')).toMatchObject({ message: { text: 'mail a@b.c about it' } });
		expect(parseSteerText('@ noon')).toMatchObject({ message: { text: '@ noon' } });
	});

	it('refuses what the run cannot take, with the reason', () => {
		expect(parseSteerText('@a @b hi')).toEqual({
			kind: 'refused',
			reason: 'a message goes to one agent (@id) or to all of them',
		});
		expect(parseSteerText('/note /note x')).toEqual({ kind: 'refused', reason: '/note is given twice' });
		expect(parseSteerText('@a')).toEqual({ kind: 'refused', reason: 'the message has no text' });
		expect(parseSteerText('   ')).toEqual({ kind: 'refused', reason: 'the message has no text' });
		expect(parseSteerText('@a /finish')).toEqual({
			kind: 'refused',
			reason: '/finish takes no agent and no note: write it alone',
		});
	});
});
