import { afterAll, describe, expect, it } from 'vitest';
import { createModel } from '../../../src/core/providers/createModel.js';
import type { BackendSettings } from '../../../src/core/providers/spec/backendSettings.js';
import type { ChatMessage, ModelEvent, ProviderToolUse } from '../../../src/core/providers/spec/model.js';
import {
	startLoopbackProvider,
	type LoopbackProtocol,
	type LoopbackProvider,
} from '../../servers/loopbackProvider.js';
import {
	anthropicServerTools,
	geminiServerTools,
	responsesServerTools,
	type ServerToolScript,
} from '../../servers/wire/providerToolStreams.js';
import { attempt, request } from './contract.js';

/** Provider-native web search and code execution, through each official SDK against its loopback server. */
const script: ServerToolScript = {
	query: 'vitest latest version',
	sources: [
		{ title: 'Vitest [docs]', url: 'https://vitest.dev/guide/' },
		{ title: 'npm', url: 'https://www.npmjs.com/package/vitest' },
		{ title: 'evil', url: 'javascript:alert(1)' },
	],
	code: 'print(6 * 7)',
	output: '42',
	text: 'Vitest 4 is current.',
};
const citedBlock =
	'\n\nSources:\n1. [Vitest \\[docs\\]](https://vitest.dev/guide/)\n2. [npm](https://www.npmjs.com/package/vitest)\n';

const servers: LoopbackProvider[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));
async function setup(protocol: LoopbackProtocol, type: string, model: string) {
	const server = await startLoopbackProvider(protocol, {});
	servers.push(server);
	const settings: BackendSettings = {
		type,
		model,
		baseUrl: server.baseUrl,
		apiKey: 'loopback-key',
		options: {},
		providerTools: { webSearch: true, codeExecution: true },
	};
	return { server, settings, model: createModel(settings) };
}
const uses = (events: readonly ModelEvent[]): ProviderToolUse[] =>
	events.flatMap((e) => (e.type === 'provider-tool' ? [e.use] : []));
const body = (server: LoopbackProvider) => server.requests.at(-1)!.body as Record<string, unknown>;

describe('OpenAI Responses: web_search and code_interpreter', () => {
	it('sends both tools after the functions, with the includes that bring sources and outputs', async () => {
		const { server, model } = await setup('responses', 'openai', 'gpt-5-mini');
		server.enqueue({ events: responsesServerTools(script) });
		const { result } = await attempt(model, request());
		expect(body(server)['tools']).toEqual([
			expect.objectContaining({ type: 'function', name: 'read_file' }),
			{ type: 'web_search' },
			{ type: 'code_interpreter', container: { type: 'auto' } },
		]);
		expect(body(server)['include']).toEqual([
			'reasoning.encrypted_content',
			'web_search_call.action.sources',
			'code_interpreter_call.outputs',
		]);
		expect(uses(result!.events)).toEqual([
			// Responses sends a search's sources as URLs only.
			{
				id: 'ws_1',
				kind: 'search',
				query: script.query,
				sources: script.sources.slice(0, 2).map(({ url }) => ({ title: url, url })),
			},
			{ id: 'ci_1', kind: 'code', code: script.code, output: '42' },
		]);
		// Annotations arrive twice (the event and the finished item): each page is listed once.
		expect(result!.text).toBe(script.text + citedBlock);
		expect(result!.finishReason).toBe('stop');
		expect(result!.usage?.webSearchCalls).toBe(1);
	});

	it('sends the web_search_call and code_interpreter_call items back in the next call', async () => {
		const { server, model } = await setup('responses', 'openai', 'gpt-5-mini');
		server.enqueue({ events: responsesServerTools(script) });
		const first = (await attempt(model, request())).result!;
		server.say({ text: 'done' });
		const messages: ChatMessage[] = [
			{ role: 'user', content: 'Hello?' },
			{ role: 'assistant', content: first.text, providerData: first.providerData! },
			{ role: 'user', content: 'And?' },
		];
		expect((await attempt(model, request({ messages }))).result!.text).toBe('done');
		const input = body(server)['input'] as Record<string, unknown>[];
		expect(input.map((item) => item['type'] ?? item['role'])).toEqual([
			'user',
			'web_search_call',
			'code_interpreter_call',
			'assistant',
			'user',
		]);
		expect(input[1]).toMatchObject({ id: 'ws_1', action: { query: script.query } });
	});

	it('leaves them out when the run decided so', async () => {
		const { server, model } = await setup('responses', 'openai', 'gpt-4.1');
		server.say({ text: 'ok' });
		await attempt(model, request({ withoutProviderTools: true }));
		expect(body(server)['tools']).toEqual([expect.objectContaining({ type: 'function' })]);
		expect(body(server)).not.toHaveProperty('include');
	});
});

describe('Anthropic: server tools web_search, web_fetch and code_execution', () => {
	it('sends the server tools with their beta header, and reads server_tool_use, results and citations', async () => {
		const { server, model } = await setup('anthropic', 'claude', 'claude-sonnet-4-5');
		server.enqueue({ events: anthropicServerTools(script) });
		const { result } = await attempt(model, request());
		const tools = body(server)['tools'] as Record<string, unknown>[];
		expect(tools.map((t) => t['type'] ?? 'custom')).toEqual([
			'custom',
			'web_search_20250305',
			'web_fetch_20250910',
			'code_execution_20250825',
		]);
		expect(tools.map((t) => t['name'])).toEqual(['read_file', 'web_search', 'web_fetch', 'code_execution']);
		expect(tools.at(-1)).toHaveProperty('cache_control');
		expect(server.requests.at(-1)!.headers['anthropic-beta']).toBe(
			'web-fetch-2025-09-10,code-execution-2025-08-25',
		);
		expect(uses(result!.events)).toEqual([
			{ id: 'srvtoolu_search', kind: 'search', query: script.query, sources: script.sources.slice(0, 2) },
			{ id: 'srvtoolu_code', kind: 'code', code: script.code, output: '42' },
		]);
		expect(result!.text).toBe(script.text + citedBlock);
		// usage.server_tool_use.web_search_requests, priced per search.
		expect(result!.usage?.webSearchCalls).toBe(1);
	});

	it('echoes the server tool blocks in the next call, as the API requires', async () => {
		const { server, model } = await setup('anthropic', 'claude', 'claude-sonnet-4-5');
		server.enqueue({ events: anthropicServerTools(script) });
		const first = (await attempt(model, request())).result!;
		const assistant: ChatMessage = {
			role: 'assistant',
			content: first.text,
			providerData: first.providerData!,
		};
		server.say({ text: 'done' });
		const messages: ChatMessage[] = [
			{ role: 'user', content: 'Hello?' },
			assistant,
			{ role: 'user', content: 'And?' },
		];
		const second = await attempt(model, request({ messages }));
		expect(second.result!.text).toBe('done');
		const sent = (body(server)['messages'] as { role: string; content: Record<string, unknown>[] }[])[1]!;
		expect(sent.role).toBe('assistant');
		expect(sent.content.map((b) => b['type'])).toEqual([
			'server_tool_use',
			'web_search_tool_result',
			'server_tool_use',
			'bash_code_execution_tool_result',
			'text',
		]);
		expect(sent.content[0]).toEqual({
			type: 'server_tool_use',
			id: 'srvtoolu_search',
			name: 'web_search',
			input: { query: script.query },
		});
		// The result goes back whole, even the entry whose link the lane dropped.
		expect(sent.content[1]!['tool_use_id']).toBe('srvtoolu_search');
		expect(sent.content[1]!['content']).toHaveLength(3);
	});
});

describe('Gemini: googleSearch and codeExecution', () => {
	it('sends both built-in tools next to the functions, and reads grounding and code parts', async () => {
		const { server, model } = await setup('gemini', 'gemini', 'gemini-3-pro-preview');
		server.enqueue({ events: geminiServerTools(script) });
		const { result } = await attempt(model, request());
		const sent = body(server);
		const tools = sent['tools'] as Record<string, unknown>[];
		expect(tools.map((t) => Object.keys(t)[0])).toEqual([
			'functionDeclarations',
			'googleSearch',
			'codeExecution',
		]);
		expect(sent['toolConfig']).toEqual({ includeServerSideToolInvocations: true });
		expect(uses(result!.events)).toEqual([
			{ id: 'gemini_code_1', kind: 'code', code: script.code, output: '42' },
			{ id: 'gemini_search_2', kind: 'search', query: script.query, sources: script.sources.slice(0, 2) },
		]);
		// groundingSupports cite chunk 1 before chunk 0: numbered in that order.
		expect(result!.text).toBe(
			`${script.text}\n\nSources:\n1. [npm](https://www.npmjs.com/package/vitest)\n2. [Vitest \\[docs\\]](https://vitest.dev/guide/)\n`,
		);
		expect((result!.providerData!['geminiServerParts'] as unknown[]).length).toBe(2);
		expect(result!.usage?.webSearchCalls).toBe(1);
	});

	it('a model that refuses grounding with function calls: one notice, the call goes on without, and so do later calls', async () => {
		const { server, model } = await setup('gemini', 'gemini', 'gemini-2.5-flash');
		server.enqueue({ status: 400, message: 'Tool use with function calling is unsupported by the model.' });
		server.say({ text: 'answer without search' });
		const first = await attempt(model, request());
		expect(first.error).toBeUndefined();
		expect(first.result!.text).toBe('answer without search');
		const notices = first.result!.events.filter((e) => e.type === 'notice');
		expect(notices).toHaveLength(1);
		expect(notices[0]).toMatchObject({
			message: expect.stringContaining('gemini-2.5-flash cannot use Google Search'),
		});
		const [refused, retried] = server.requests.slice(-2).map((r) => r.body as Record<string, unknown>);
		expect(JSON.stringify(refused!['tools'])).toContain('googleSearch');
		expect(JSON.stringify(retried!['tools'])).not.toContain('googleSearch');
		server.say({ text: 'again' });
		const second = await attempt(model, request());
		expect(second.result!.events.some((e) => e.type === 'notice')).toBe(false);
		expect(JSON.stringify(body(server)['tools'])).not.toContain('googleSearch');
		expect(server.requests).toHaveLength(3);
	});

	it('another 400 is not taken for a refusal', async () => {
		const { server, model } = await setup('gemini', 'gemini', 'gemini-2.5-flash');
		server.enqueue({ status: 400, message: 'Invalid JSON payload received.' });
		const { error } = await attempt(model, request());
		expect(error?.message).toContain('Invalid JSON payload');
		expect(server.requests).toHaveLength(1);
	});
});

describe('OpenRouter: the web plugin', () => {
	it('asks for the plugin and keeps url_citation annotations as numbered links', async () => {
		const server = await startLoopbackProvider('chat', {});
		servers.push(server);
		const model = createModel({
			type: 'openrouter',
			model: 'openai/gpt-5-mini',
			baseUrl: server.baseUrl,
			apiKey: 'k',
			options: {},
			providerTools: { webSearch: true },
		});
		const annotations = script.sources.map((x) => ({
			type: 'url_citation',
			url_citation: { url: x.url, title: x.title },
		}));
		const chunk = (delta: unknown, finish: string | null = null) => ({
			data: {
				id: 'c1',
				object: 'chat.completion.chunk',
				created: 1,
				model: 'm',
				choices: [{ index: 0, delta, finish_reason: finish }],
			},
		});
		server.enqueue({
			events: [
				chunk({ role: 'assistant', content: script.text }),
				chunk({ annotations }, 'stop'),
				{ data: '[DONE]' },
			],
		});
		const { result } = await attempt(model, request());
		expect(body(server)['plugins']).toEqual([{ id: 'web' }]);
		expect(result!.text).toBe(script.text + citedBlock);
	});
});
