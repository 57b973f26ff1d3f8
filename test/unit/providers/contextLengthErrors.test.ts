import { afterAll, describe, expect, it } from 'vitest';
import { createModel } from '../../../src/core/providers/createModel.js';
import {
	startLoopbackProvider,
	type LoopbackProtocol,
	type LoopbackProvider,
} from '../../servers/loopbackProvider.js';
import type { ChatServerFlavor } from '../../servers/wire/contextErrors.js';
import { attempt, request } from './contract.js';

/**
 * Each adapter, through its official SDK, classifies its provider's own "prompt too long" answer
 * (the loopback server's `contextLimit`, in the vendor's error shape) as `context-length`, the
 * kind the turns compact on (`ContextKeeper.rejected`); a request under the limit is answered.
 */
const cases: readonly {
	protocol: LoopbackProtocol;
	type: string;
	flavor?: ChatServerFlavor;
	says: RegExp;
}[] = [
	{ protocol: 'responses', type: 'openai', says: /exceeds the context window/ },
	{ protocol: 'chat', type: 'chatcompletion', flavor: 'openai', says: /maximum context length is 25 tokens/ },
	{ protocol: 'chat', type: 'vllm', flavor: 'vllm', says: /maximum context length is 25 tokens/ },
	{ protocol: 'chat', type: 'chatcompletion', flavor: 'llamacpp', says: /available context size/ },
	{ protocol: 'anthropic', type: 'claude', says: /prompt is too long: \d+ tokens > 25 maximum/ },
	{
		protocol: 'gemini',
		type: 'gemini',
		says: /input token count \(\d+\) exceeds the maximum number of tokens allowed \(25\)/,
	},
];

describe('context-length errors in each provider shape', () => {
	const servers: LoopbackProvider[] = [];
	afterAll(() => Promise.all(servers.map((server) => server.close())));

	for (const { protocol, type, flavor, says } of cases) {
		it(`${type} on ${protocol}${flavor ? ` (${flavor})` : ''}`, async () => {
			const server = await startLoopbackProvider(protocol, {
				auto: true,
				contextLimit: { maxPromptBytes: 100, ...(flavor ? { flavor } : {}) },
			});
			servers.push(server);
			const model = createModel({
				type,
				model: 'm1',
				baseUrl: server.baseUrl,
				apiKey: 'loopback-key',
				options: {},
			});
			const long = request({ messages: [{ role: 'user', content: 'x'.repeat(400) }] });
			const { error } = await attempt(model, long);
			expect(error).toMatchObject({ kind: 'context-length', retryable: false });
			expect(error!.message).toMatch(says);
			expect(server.requests.at(-1)!.tooLong).toBe(true);
		});
	}
});
