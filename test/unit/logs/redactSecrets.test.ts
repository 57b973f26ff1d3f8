import { describe, expect, it } from 'vitest';
import { createRedactor, REDACTED, redactSecrets, stringifyRedacted } from '../../../src/core/logs/redactSecrets.js';

describe('redactSecrets', () => {
	it('replaces every occurrence of every secret', () => {
		expect(redactSecrets('key sk-abc123 and sk-abc123, gem AIza999', ['sk-abc123', 'AIza999'])).toBe(
			`key ${REDACTED} and ${REDACTED}, gem ${REDACTED}`,
		);
	});

	it('replaces the longer secret first when one contains another', () => {
		expect(redactSecrets('sk-abc123-long', ['sk-abc123', 'sk-abc123-long'])).toBe(REDACTED);
	});

	it('ignores empty and very short values that would mangle ordinary text', () => {
		expect(redactSecrets('a type of text', ['', 'a', 'ty'])).toBe('a type of text');
	});

	it('finds a secret in its JSON-escaped form', () => {
		const secret = 'p"a\\ss\nword';
		const line = JSON.stringify({ text: `x ${secret} y` });
		expect(line).not.toContain(secret);
		const out = redactSecrets(line, [secret]);
		expect(out).not.toContain(JSON.stringify(secret).slice(1, -1));
		expect(JSON.parse(out)).toEqual({ text: `x ${REDACTED} y` });
	});

	it('stringifies with secrets removed from keys and values, keeping the JSON valid', () => {
		const redact = createRedactor(['sk-secret-1']);
		const value = { args: { 'sk-secret-1': 'v', list: ['a sk-secret-1 b', 3] }, n: null };
		const text = stringifyRedacted(value, redact);
		expect(text).not.toContain('sk-secret-1');
		expect(JSON.parse(text)).toEqual({ args: { [REDACTED]: 'v', list: [`a ${REDACTED} b`, 3] }, n: null });
		expect(stringifyRedacted({ a: 1 }, redact, '  ')).toBe('{\n  "a": 1\n}');
	});
});
