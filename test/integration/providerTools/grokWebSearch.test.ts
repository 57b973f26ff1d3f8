import { afterAll, describe, expect, it } from 'vitest';
import { loadConfigText } from '../../../src/core/config/loadConfig.js';
import { toBackendSettings } from '../../../src/core/config/toSettings.js';
import { createModel } from '../../../src/core/providers/createModel.js';
import type { BackendSettings } from '../../../src/core/providers/spec/backendSettings.js';
import type { ChatMessage, ModelEvent, ProviderToolUse } from '../../../src/core/providers/spec/model.js';
import { costOf, loadPriceTable, priceFor } from '../../../src/core/providers/spec/pricing.js';
import { startLoopbackProvider, type LoopbackProvider } from '../../servers/loopbackProvider.js';
import type { ServerToolScript } from '../../servers/wire/providerToolStreams.js';
import { xaiServerTools } from '../../servers/wire/xaiToolStreams.js';
import { attempt, request } from '../../unit/providers/contract.js';

/** A grok agent with enable_web_search: the official `openai` SDK against the loopback Responses server, as xAI's. */
const script: ServerToolScript = {
	query: 'grok 4 release',
	sources: [
		{ title: 'xAI news', url: 'https://x.ai/news' },
		{ title: 'Grok', url: 'https://x.ai/grok' },
		{ title: 'evil', url: 'javascript:alert(1)' },
	],
	code: '',
	output: '',
	text: 'Grok 4 came out in July 2025.',
};

const servers: LoopbackProvider[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));
async function grok(protocol: 'responses' | 'chat', providerTools?: BackendSettings['providerTools']) {
	const server = await startLoopbackProvider(protocol, {});
	servers.push(server);
	const settings: BackendSettings = {
		type: 'grok',
		model: 'grok-4-fast',
		baseUrl: server.baseUrl,
		apiKey: 'xai-loopback-key',
		options: {},
		...(providerTools ? { providerTools } : {}),
	};
	return { server, model: createModel(settings) };
}
const uses = (events: readonly ModelEvent[]): ProviderToolUse[] =>
	events.flatMap((e) => (e.type === 'provider-tool' ? [e.use] : []));
const last = (server: LoopbackProvider) => server.requests.at(-1)!;
const body = (server: LoopbackProvider) => last(server).body as Record<string, unknown>;

describe('grok web search over xAI’s Responses API', () => {
	it('sends web_search and x_search after the functions to /v1/responses, no OpenAI includes, the key as bearer', async () => {
		const { server, model } = await grok('responses', { webSearch: true });
		server.enqueue({ events: xaiServerTools(script) });
		const { result, error } = await attempt(model, request());
		expect(error).toBeUndefined();
		expect(last(server).path).toBe('/v1/responses');
		expect(last(server).headers['authorization']).toBe('Bearer xai-loopback-key');
		expect(body(server)['tools']).toEqual([
			expect.objectContaining({ type: 'function', name: 'read_file' }),
			{ type: 'web_search' },
			{ type: 'x_search' },
		]);
		// xAI accepts only reasoning.encrypted_content in include, and sends sources without one.
		expect(body(server)).not.toHaveProperty('include');
		expect(body(server)).toMatchObject({ model: 'grok-4-fast', stream: true, store: false });
		expect(uses(result!.events)).toEqual([
			{
				id: 'ws_xai_call-0',
				kind: 'search',
				query: script.query,
				sources: script.sources.slice(0, 2).map(({ url }) => ({ title: url, url })),
			},
			{ id: 'fc_xai_0', kind: 'search', query: `X: ${script.query}` },
		]);
		// xAI's citations carry the URL as title; the javascript: source never reaches the answer.
		expect(result!.text).toBe(
			`${script.text}\n\nSources:\n1. [https://x.ai/news](https://x.ai/news)\n2. [https://x.ai/grok](https://x.ai/grok)\n`,
		);
		expect(result!.usage).toMatchObject({ inputTokens: 1000, outputTokens: 40, webSearchCalls: 2 });
	});

	it('prices both searches at xAI’s per-call rate from prices.yaml', async () => {
		const table = await loadPriceTable('configs/prices.yaml');
		const price = priceFor('grok', 'grok-4-fast-reasoning', table);
		expect(price?.webSearchCall).toBe(0.005);
		const usage = { inputTokens: 1000, outputTokens: 40, webSearchCalls: 2 };
		// 1000 × $0.20/M + 40 × $0.50/M + 2 × $0.005
		expect(costOf(usage, price)).toBeCloseTo(0.0002 + 0.00002 + 0.01, 10);
	});

	it('does not send the search items back on the next call (xAI keeps them), and leaves the tools out when denied', async () => {
		const { server, model } = await grok('responses', { webSearch: true });
		server.enqueue({ events: xaiServerTools(script) });
		const first = (await attempt(model, request())).result!;
		server.say({ text: 'more' });
		const messages: ChatMessage[] = [
			{ role: 'user', content: 'Hello?' },
			{
				role: 'assistant',
				content: first.text,
				...(first.providerData ? { providerData: first.providerData } : {}),
			},
			{ role: 'user', content: 'And?' },
		];
		expect((await attempt(model, request({ messages }))).result!.text).toBe('more');
		const input = body(server)['input'] as Record<string, unknown>[];
		expect(input.map((item) => item['type'] ?? item['role'])).toEqual(['user', 'assistant', 'user']);
		server.say({ text: 'without' });
		await attempt(model, request({ withoutProviderTools: true }));
		expect((body(server)['tools'] as { type: string }[]).map((t) => t.type)).toEqual(['function']);
	});

	it('a grok agent without web search stays on chat completions', async () => {
		const { server, model } = await grok('chat');
		server.say({ text: 'chat' });
		expect((await attempt(model, request())).result!.text).toBe('chat');
		expect(last(server).path).toBe('/v1/chat/completions');
		expect(body(server)).not.toHaveProperty('search_parameters');
	});

	it('MassGen’s three_agents_default grok member validates with its web search on, no warning about it', () => {
		const yaml = [
			'agents:',
			'  - id: "grok3mini"',
			'    backend:',
			'      type: "grok"',
			'      model: "grok-4-fast"',
			'      enable_web_search: true',
			'      enable_code_execution: true',
		].join('\n');
		const result = loadConfigText(yaml, 'three_agents_default.yaml');
		expect(result.issues.map((i) => i.message)).toEqual([
			"'enable_code_execution' in agents[0].backend is ignored: type grok: xAI's code execution tool is not supported here yet",
		]);
		expect(toBackendSettings(result.config!.agents[0]!).providerTools).toEqual({ webSearch: true });
	});
});
