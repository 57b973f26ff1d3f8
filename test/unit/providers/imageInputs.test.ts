import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../../src/core/providers/spec/model.js';
import { toAnthropicMessages } from '../../../src/core/providers/vendors/toAnthropicRequest.js';
import { toChatMessages } from '../../../src/core/providers/vendors/toChatCompletionsRequest.js';
import { toGeminiContents } from '../../../src/core/providers/vendors/toGeminiRequest.js';
import { toResponsesInput } from '../../../src/core/providers/vendors/toResponsesRequest.js';

const image = { mediaType: 'image/webp', base64: 'UklGRgAAAABXRUJQ' } as const;
const request = (images?: readonly (typeof image)[]): ChatRequest => ({
	system: 'sys',
	messages: [
		{ role: 'user', content: 'look at this', ...(images ? { images } : {}) },
		{ role: 'assistant', content: 'ok' },
		{ role: 'user', content: 'and now?' },
	],
	tools: [],
	stablePrefixMessages: 1,
});

describe('user messages with images', () => {
	it('Anthropic: images come before the text, and the stable-prefix cache mark stays on the text', () => {
		const [first] = toAnthropicMessages(request([image, image]));
		expect(first!.content).toEqual([
			{ type: 'image', source: { type: 'base64', media_type: 'image/webp', data: image.base64 } },
			{ type: 'image', source: { type: 'base64', media_type: 'image/webp', data: image.base64 } },
			{ type: 'text', text: 'look at this', cache_control: { type: 'ephemeral' } },
		]);
	});

	it('every adapter keeps a message without images exactly as before', () => {
		expect(toResponsesInput(request())[0]).toEqual({ role: 'user', content: 'look at this' });
		expect(toChatMessages(request())[1]).toEqual({ role: 'user', content: 'look at this' });
		expect(toGeminiContents(request())[0]).toEqual({ role: 'user', parts: [{ text: 'look at this' }] });
		expect(toAnthropicMessages(request())[0]!.content).toEqual([
			{ type: 'text', text: 'look at this', cache_control: { type: 'ephemeral' } },
		]);
	});

	it('Gemini, Responses and Chat Completions put the text first, then the images', () => {
		expect(toGeminiContents(request([image]))[0]!.parts).toEqual([
			{ text: 'look at this' },
			{ inlineData: { mimeType: 'image/webp', data: image.base64 } },
		]);
		expect(toResponsesInput(request([image]))[0]).toEqual({
			role: 'user',
			content: [
				{ type: 'input_text', text: 'look at this' },
				{ type: 'input_image', image_url: `data:image/webp;base64,${image.base64}`, detail: 'auto' },
			],
		});
		expect(toChatMessages(request([image]))[1]).toEqual({
			role: 'user',
			content: [
				{ type: 'text', text: 'look at this' },
				{ type: 'image_url', image_url: { url: `data:image/webp;base64,${image.base64}` } },
			],
		});
	});
});
