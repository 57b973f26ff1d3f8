import { describe, expect, it } from 'vitest';
import { questionArgument } from '../../../src/vscode/commands/askTeam';
import { summaryOf } from '../../../src/vscode/commands/selectTeamConfig';
import { issueSpan } from '../../../src/vscode/config/issueSpan';
import { KeyStore, keyProviders } from '../../../src/vscode/common/secrets';

describe('issueSpan', () => {
	it('underlines the YAML token at the column', () => {
		const line = '      temperature: hot';
		expect(issueSpan(line, 7)).toEqual({ start: 6, end: 17 });
		expect(issueSpan(line, 20)).toEqual({ start: 19, end: 22 });
		expect(issueSpan('  model: "gpt 4o" # x', 10)).toEqual({ start: 9, end: 17 });
	});

	it('is at least one character, also past the end or without the text', () => {
		expect(issueSpan('ab', 10)).toEqual({ start: 9, end: 10 });
		expect(issueSpan(undefined, 1)).toEqual({ start: 0, end: 1 });
		expect(issueSpan('  : x', 3)).toEqual({ start: 2, end: 3 });
	});
});

describe('Ask Team argument', () => {
	it('takes a string or { question }, trimmed; anything else asks', () => {
		expect(questionArgument('  Why?  ')).toBe('Why?');
		expect(questionArgument({ question: 'How?' })).toBe('How?');
		for (const arg of [undefined, '', '   ', 42, {}, { question: 1 }, null]) {
			expect(questionArgument(arg)).toBeUndefined();
		}
	});
});

describe('Select Team Config', () => {
	it('summarises a preset by its first comment line after the schema modeline', () => {
		expect(
			summaryOf('# yaml-language-server: $schema=x.json\n#\n# A scripted team.\n# More.\nagents: []\n'),
		).toBe('A scripted team.');
		expect(summaryOf('agents: []\n# late comment\n')).toBe('');
	});
});

describe('KeyStore', () => {
	it('stores keys under the provider variable, trimmed; getAll returns only set ones', async () => {
		const map = new Map<string, string>();
		const store = new KeyStore({
			get: async (key) => map.get(key),
			store: async (key, value) => void map.set(key, value),
			delete: async (key) => void map.delete(key),
		});
		await store.set('OPENAI_API_KEY', '  sk-1 \n');
		await store.set('GEMINI_API_KEY', '   ');
		expect(map.get('OPENAI_API_KEY')).toBe('sk-1');
		expect(await store.getAll()).toEqual({ OPENAI_API_KEY: 'sk-1' });
		expect(await store.has('GEMINI_API_KEY')).toBe(false);
		await store.remove('OPENAI_API_KEY');
		expect(await store.getAll()).toEqual({});
	});

	it('offers one entry per provider variable', () => {
		const variables = keyProviders.map((p) => p.variable);
		expect(new Set(variables).size).toBe(variables.length);
		expect(variables).toEqual(
			expect.arrayContaining(['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'GEMINI_API_KEY', 'XAI_API_KEY']),
		);
	});
});
