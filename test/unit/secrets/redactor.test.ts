import { describe, expect, it } from 'vitest';
import { REDACTED, Redactor, redactProviderText } from '../../../src/core/secrets/redactor.js';

const redact = (text: string, secrets: string[]) => new Redactor(secrets).text(text);

describe('Redactor', () => {
	it('replaces every occurrence of every secret', () => {
		expect(redact('key sk-abc123 and sk-abc123, gem AIza999', ['sk-abc123', 'AIza999'])).toBe(
			`key ${REDACTED} and ${REDACTED}, gem ${REDACTED}`,
		);
	});

	it('covers overlapping and nested secrets with one marker (no piece of either survives)', () => {
		expect(redact('sk-abc123-long', ['sk-abc123', 'sk-abc123-long'])).toBe(REDACTED);
		expect(redact('x abcdxy z', ['abcd', 'cdxy'])).toBe(`x ${REDACTED} z`);
	});

	it('ignores empty and very short values that would mangle ordinary text', () => {
		expect(redact('a type of text', ['', 'a', 'ty'])).toBe('a type of text');
	});

	it('finds a secret in its JSON-escaped form', () => {
		const secret = 'p"a\\ss\nword';
		const line = JSON.stringify({ text: `x ${secret} y` });
		expect(line).not.toContain(secret);
		const out = redact(line, [secret]);
		expect(out).not.toContain(JSON.stringify(secret).slice(1, -1));
		expect(JSON.parse(out)).toEqual({ text: `x ${REDACTED} y` });
	});

	it('masks the userinfo of any URL, known or not, and keeps the rest of the URL', () => {
		const none = new Redactor();
		expect(none.text('GET http://user:pw@127.0.0.1:9/v1 failed; see https://example.com/a@b')).toBe(
			`GET http://${REDACTED}@127.0.0.1:9/v1 failed; see https://example.com/a@b`,
		);
		expect(none.text('postgres://app:s3cr3t@db/prod and git@github.com:o/r')).toBe(
			`postgres://${REDACTED}@db/prod and git@github.com:o/r`,
		);
	});

	it('stringifies with secrets removed from keys and values, keeping the JSON valid', () => {
		const redactor = new Redactor(['sk-secret-1']);
		const value = { args: { 'sk-secret-1': 'v', list: ['a sk-secret-1 b', 3] }, n: null };
		const text = redactor.stringify(value);
		expect(text).not.toContain('sk-secret-1');
		expect(JSON.parse(text)).toEqual({ args: { [REDACTED]: 'v', list: [`a ${REDACTED} b`, 3] }, n: null });
		expect(redactor.stringify({ a: 1 }, '  ')).toBe('{\n  "a": 1\n}');
	});

	it('returns the same object when nothing needed redacting (no copy on the hot path)', () => {
		const value = { type: 'text-delta', text: 'plain', nested: { list: ['a'] } };
		expect(new Redactor(['sk-secret-1']).json(value)).toBe(value);
	});

	it('learns more secrets with `with`', () => {
		expect(new Redactor(['first-secret']).with(['second-secret']).text('first-secret second-secret')).toBe(
			`${REDACTED} ${REDACTED}`,
		);
	});

	it('provider texts lose the key and anything shaped like one', () => {
		expect(redactProviderText('bad key my-own-key-1234, also sk-ant-abcdefghijkl', 'my-own-key-1234')).toBe(
			`bad key ${REDACTED}, also ${REDACTED}`,
		);
	});
});
