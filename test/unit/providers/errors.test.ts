import { describe, expect, it } from 'vitest';
import { toProviderError } from '../../../src/core/providers/shared/errors.js';
import { redactProviderText } from '../../../src/core/secrets/redactor.js';
import { retryAfterMs } from '../../../src/core/providers/shared/retryAfter.js';
import { ProviderError } from '../../../src/core/providers/spec/providerError.js';

const ctx = { provider: 'openai', keyVariable: 'OPENAI_API_KEY', apiKey: 'sk-proj-abcdefghijklmnop' };

describe('retryAfterMs', () => {
	it('reads milliseconds, seconds and HTTP dates', () => {
		expect(retryAfterMs(new Headers({ 'retry-after-ms': '250' }))).toBe(250);
		expect(retryAfterMs({ 'retry-after': '1.5' })).toBe(1500);
		const now = Date.parse('2025-01-01T00:00:00Z');
		expect(retryAfterMs({ 'retry-after': 'Wed, 01 Jan 2025 00:00:07 GMT' }, now)).toBe(7000);
		expect(retryAfterMs({ 'retry-after': 'soon' })).toBeUndefined();
		expect(retryAfterMs(undefined)).toBeUndefined();
	});
});

describe('toProviderError', () => {
	it('passes ProviderErrors through, but reports anything after an abort as aborted', () => {
		const original = new ProviderError({ provider: 'x', kind: 'server', message: 'm' });
		expect(toProviderError(original, ctx)).toBe(original);
		const controller = new AbortController();
		controller.abort();
		expect(toProviderError(original, { ...ctx, signal: controller.signal }).kind).toBe('aborted');
		expect(toProviderError(new TypeError('terminated'), { ...ctx, signal: controller.signal }).kind).toBe(
			'aborted',
		);
	});

	it('recognises network failures by code and message along the cause chain', () => {
		const refused = Object.assign(new TypeError('fetch failed'), {
			cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }),
		});
		const error = toProviderError(refused, ctx);
		expect(error).toMatchObject({ kind: 'network', retryable: true });
		expect(error.message).toContain('ECONNREFUSED');
	});

	it('maps 403 to auth (not permitted), 404 to a non-retryable rejection, 408 to network, 503 to server', () => {
		expect(toProviderError({ status: 403, message: '403 no access' }, ctx)).toMatchObject({
			kind: 'auth',
			message: 'OPENAI_API_KEY not permitted (403): no access',
		});
		expect(toProviderError({ status: 404, message: 'model not found' }, ctx)).toMatchObject({
			kind: 'invalid-response',
			retryable: false,
		});
		expect(toProviderError({ status: 408 }, ctx)).toMatchObject({ kind: 'network', retryable: true });
		expect(toProviderError({ status: 503, headers: { 'retry-after': '4' } }, ctx)).toMatchObject({
			kind: 'server',
			retryAfterMs: 4000,
		});
	});

	it('maps a JSON parse failure to invalid-response', () => {
		let syntax: unknown;
		try {
			JSON.parse('{"a":');
		} catch (error) {
			syntax = error;
		}
		expect(toProviderError(syntax, ctx)).toMatchObject({ kind: 'invalid-response', retryable: false });
	});

	it('never repeats the key, nor anything shaped like one', () => {
		const error = toProviderError(
			{
				status: 401,
				error: { message: `Incorrect API key provided: ${ctx.apiKey}. Also sk-ant-api03-XYZXYZXYZXYZ` },
			},
			ctx,
		);
		expect(error.message).not.toContain(ctx.apiKey);
		expect(error.message).not.toContain('sk-ant-api03');
		expect(error.message.startsWith('OPENAI_API_KEY rejected (401)')).toBe(true);
		expect(redactProviderText('key=AIzaSyA1234567890abcdef', undefined)).toBe('key=[redacted]');
	});
});
