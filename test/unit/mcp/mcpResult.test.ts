import { describe, expect, it } from 'vitest';
import { base64Bytes, toToolOutcome } from '../../../src/core/mcp/mcpResult.js';

describe('toToolOutcome', () => {
	it('joins text, references images, audio and resources, keeps isError', () => {
		const data = Buffer.from('0123456789').toString('base64');
		expect(
			toToolOutcome('mcp__s__t', {
				content: [
					{ type: 'text', text: 'first' },
					{ type: 'image', data, mimeType: 'image/jpeg' },
					{ type: 'audio', data, mimeType: 'audio/wav' },
					{ type: 'resource_link', uri: 'file:///a.txt', name: 'a' },
					{ type: 'resource', resource: { uri: 'file:///b.txt', text: 'inline' } },
					{
						type: 'resource',
						resource: { uri: 'file:///c.bin', mimeType: 'application/octet-stream', blob: data },
					},
				],
			}),
		).toEqual({
			text: 'first\n[image: image/jpeg, 10 bytes]\n[audio: audio/wav, 10 bytes]\n[resource link: file:///a.txt (a)]\n[resource: file:///b.txt]\ninline\n[resource: file:///c.bin, application/octet-stream, 10 bytes]',
			isError: false,
		});
		expect(toToolOutcome('mcp__s__t', { content: [{ type: 'text', text: 'nope' }], isError: true })).toEqual({
			text: 'mcp__s__t: nope',
			isError: true,
		});
	});

	it('falls back to structured content, legacy toolResult, or a placeholder', () => {
		expect(toToolOutcome('t', { content: [], structuredContent: { a: 1 } }).text).toBe('{\n  "a": 1\n}');
		expect(toToolOutcome('t', { toolResult: 'old' }).text).toBe('old');
		expect(toToolOutcome('t', { content: [] })).toEqual({ text: '(no output)', isError: false });
		expect(toToolOutcome('t', { isError: true })).toEqual({
			text: 't: the tool reported an error without a message',
			isError: true,
		});
	});

	it('counts base64 bytes', () => {
		for (const text of ['', 'a', 'ab', 'abc', 'abcd']) {
			expect(base64Bytes(Buffer.from(text).toString('base64'))).toBe(text.length);
		}
	});
});
