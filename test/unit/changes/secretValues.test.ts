import { describe, expect, it } from 'vitest';
import { filesWithSecretValues } from '../../../src/core/changes/secretValues.js';
import { Redactor } from '../../../src/core/secrets/redactor.js';
import type { FileChange } from '../../../src/contract/fileChange.js';

const secret = 'sk-known-secret-value-77';
const change = (path: string, content: string | null, base: string | null = null): FileChange => ({
	path,
	kind: content === null ? 'delete' : base === null ? 'add' : 'modify',
	baseHash: base === null ? null : 'h',
	base,
	content,
});

describe('filesWithSecretValues', () => {
	it('marks files whose new text holds a known secret (raw or JSON-escaped) that the base did not', () => {
		const redactor = new Redactor([secret, 'with"quote-secret']);
		const marked = filesWithSecretValues(
			[
				change('new.env', `KEY=${secret}\n`),
				change('config.json', '{"k": "with\\"quote-secret"}', '{}'),
				change('had.txt', `${secret} and more`, `${secret}`),
				change('plain.ts', 'export {};\n', ''),
				change('gone.txt', null, secret),
			],
			redactor,
		);
		expect(marked).toEqual(['new.env', 'config.json']);
	});

	it('control: a redactor that knows no secret marks nothing', () => {
		expect(filesWithSecretValues([change('a', secret)], new Redactor())).toEqual([]);
	});
});
