import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createModel } from '../../../src/core/providers/createModel.js';
import {
	startLoopbackProvider,
	type LoopbackProtocol,
	type LoopbackProvider,
} from '../../servers/loopbackProvider.js';
import { attempt, request, testKey } from './contract.js';

const dir = join(__dirname, '..', '..', 'fixtures', 'providers');

const cases: { protocol: LoopbackProtocol; type: string; model: string; file: string }[] = [
	{
		protocol: 'responses',
		type: 'openai',
		model: 'gpt-5-mini',
		file: 'responses/reasoning-text-function-call',
	},
	{ protocol: 'chat', type: 'vllm', model: 'Qwen/Qwen3-32B', file: 'chat/reasoning-parallel-tool-calls' },
	{
		protocol: 'anthropic',
		type: 'claude',
		model: 'claude-sonnet-4-5',
		file: 'anthropic/thinking-text-tool-use',
	},
	{
		protocol: 'gemini',
		type: 'gemini',
		model: 'gemini-2.5-flash',
		file: 'gemini/thought-text-function-call',
	},
];

describe.each(cases)('fixture $file', ({ protocol, type, model: modelId, file }) => {
	const servers: LoopbackProvider[] = [];
	afterAll(() => Promise.all(servers.map((s) => s.close())));

	it.each([7, 64, 100_000])('replays through the real SDK in %i-byte pieces', async (chunkBytes) => {
		const server = await startLoopbackProvider(protocol);
		servers.push(server);
		server.enqueue({ raw: readFileSync(join(dir, `${file}.sse`), 'utf8'), chunkBytes });
		const model = createModel({
			type,
			model: modelId,
			apiKey: testKey,
			baseUrl: server.baseUrl,
			options: {},
		});
		const { result, error } = await attempt(model, request());
		expect(error).toBeUndefined();
		const expected = JSON.parse(readFileSync(join(dir, `${file}.expected.json`), 'utf8')) as Record<
			string,
			unknown
		>;
		expect(result!.text).toBe(expected['text']);
		expect(result!.reasoning).toBe(expected['reasoning']);
		expect(result!.toolCalls).toMatchObject(expected['toolCalls'] as object[]);
		expect(result!.usage).toEqual(expected['usage']);
		expect(result!.finishReason).toBe(expected['finishReason']);
		if (expected['providerData']) expect(result!.providerData).toEqual(expected['providerData']);
	});
});
