import { describe, expect, it } from 'vitest';
import { createModel } from '../../../src/core/providers/createModel.js';
import type { ChatMessage } from '../../../src/core/providers/spec/model.js';
import { toChatCompletionsRequest } from '../../../src/core/providers/vendors/toChatCompletionsRequest.js';
import { startLoopbackProvider } from '../../servers/loopbackProvider.js';
import { attempt, describeProviderContract, readFileTool, request, testKey } from './contract.js';

const bearer = (headers: Readonly<Record<string, string>>) =>
	headers['authorization']?.replace(/^Bearer /, '');

describeProviderContract(
	{
		protocol: 'chat',
		type: 'chatcompletion',
		model: 'qwen3-32b',
		keyVariable: 'CEREBRAS_API_KEY',
		authHeader: bearer,
	},
	(ctx) => {
		it('sends system + messages, function tools, include_usage and max_tokens', async () => {
			const { server, settings } = ctx();
			const model = createModel({ ...settings, temperature: 0.2, maxTokens: 700 });
			server.say({ text: 'ok' });
			await attempt(model, request());
			const recorded = server.requests.at(-1)!;
			expect(recorded.path).toBe('/v1/chat/completions');
			expect(recorded.body).toMatchObject({
				model: 'qwen3-32b',
				stream: true,
				stream_options: { include_usage: true },
				temperature: 0.2,
				max_tokens: 700,
				messages: [
					{ role: 'system', content: 'You are a careful engineer.' },
					{ role: 'user', content: 'Hello?' },
				],
				tools: [
					{
						type: 'function',
						function: {
							name: 'read_file',
							description: readFileTool.description,
							parameters: readFileTool.parameters,
						},
					},
				],
			});
		});

		it('sends prompt_cache_key to OpenAI only: other compatible servers may reject it', async () => {
			const { server, settings } = ctx();
			server.say({ text: 'ok' });
			await attempt(ctx().model, request({ cacheKey: 'massgen-run1-agent1' }));
			expect(server.requests.at(-1)!.body).not.toHaveProperty('prompt_cache_key');
			const openai = { ...settings, baseUrl: 'https://api.openai.com/v1' };
			expect(toChatCompletionsRequest(openai, request({ cacheKey: 'massgen-run1-agent1' }))).toMatchObject({
				prompt_cache_key: 'massgen-run1-agent1',
			});
			expect(toChatCompletionsRequest(openai, request())).not.toHaveProperty('prompt_cache_key');
		});

		it('round-trips history: assistant tool_calls and role tool messages', async () => {
			const { server, model } = ctx();
			server.say({
				text: 'Reading both.',
				toolCalls: [
					{ id: 'call_a', name: 'read_file', arguments: { path: 'a.ts' } },
					{ id: 'call_b', name: 'read_file', raw: '{"path": ' },
				],
			});
			const first = (await attempt(model, request())).result!;
			const history: ChatMessage[] = [
				{ role: 'user', content: 'Hello?' },
				{ role: 'assistant', content: first.text, toolCalls: first.toolCalls },
				{ role: 'tool', toolCallId: 'call_a', toolName: 'read_file', content: 'export {}' },
				{
					role: 'tool',
					toolCallId: 'call_b',
					toolName: 'read_file',
					content: 'invalid JSON arguments',
					isError: true,
				},
			];
			server.say({ text: 'done' });
			await attempt(model, request({ messages: history }));
			const messages = (server.requests.at(-1)!.body as { messages: unknown[] }).messages;
			expect(messages.slice(2)).toEqual([
				{
					role: 'assistant',
					content: 'Reading both.',
					tool_calls: [
						{ id: 'call_a', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.ts"}' } },
						{ id: 'call_b', type: 'function', function: { name: 'read_file', arguments: '{}' } },
					],
				},
				{ role: 'tool', tool_call_id: 'call_a', content: 'export {}' },
				{ role: 'tool', tool_call_id: 'call_b', content: 'invalid JSON arguments' },
			]);
		});

		it('reads `reasoning` deltas (OpenRouter style) as well as `reasoning_content`', async () => {
			const { server, model } = ctx();
			const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
				data: {
					id: 'x',
					object: 'chat.completion.chunk',
					created: 1,
					model: 'm',
					choices: [{ index: 0, delta, finish_reason: finish }],
				},
			});
			server.enqueue({
				events: [
					chunk({ reasoning: 'hmm ' }),
					chunk({ reasoning_content: 'yes' }),
					chunk({ content: 'A' }),
					chunk({}, 'stop'),
					{ data: '[DONE]' },
				],
			});
			const { result } = await attempt(model, request());
			expect(result!.reasoning).toBe('hmm yes');
			expect(result!.text).toBe('A');
			expect(result!.usage).toBeUndefined();
		});

		it('treats tool calls sent with finish_reason stop (older local servers) as tool-calls', async () => {
			const { server, model } = ctx();
			const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
				data: {
					id: 'x',
					object: 'chat.completion.chunk',
					created: 1,
					model: 'm',
					choices: [{ index: 0, delta, finish_reason: finish }],
				},
			});
			server.enqueue({
				events: [
					chunk({
						tool_calls: [
							{
								index: 0,
								id: 'c1',
								type: 'function',
								function: { name: 'read_file', arguments: '{"path":"x"}' },
							},
						],
					}),
					chunk({}, 'stop'),
					{ data: '[DONE]' },
				],
			});
			const { result } = await attempt(model, request());
			expect(result!.finishReason).toBe('tool-calls');
			expect(result!.toolCalls[0]).toMatchObject({ id: 'c1', arguments: { path: 'x' } });
		});

		it('maps an error chunk inside a 200 stream to a typed error', async () => {
			const { server, model } = ctx();
			server.enqueue({
				events: [{ data: { error: { message: 'Overloaded, try later', type: 'server_error', code: null } } }],
			});
			expect((await attempt(model, request())).error).toMatchObject({ kind: 'server', retryable: true });
		});

		it('maps quota exhaustion (429 insufficient_quota) to a non-retryable rate-limit error', async () => {
			const { server, model } = ctx();
			server.enqueue({
				status: 429,
				body: {
					error: {
						message: 'You exceeded your current quota',
						type: 'insufficient_quota',
						code: 'insufficient_quota',
					},
				},
			});
			expect((await attempt(model, request())).error).toMatchObject({ kind: 'rate-limit', retryable: false });
		});

		it('never sends the key in the body or URL', () => {
			for (const recorded of ctx().server.requests) {
				expect(recorded.rawBody).not.toContain(testKey);
				expect(JSON.stringify(recorded.query)).not.toContain(testKey);
			}
		});
	},
);

describe('chat completions presets', () => {
	it('local presets (ollama) work without a key, sending a placeholder', async () => {
		const server = await startLoopbackProvider('chat');
		try {
			server.say({ text: 'local' });
			const model = createModel({ type: 'ollama', model: 'llama3.2', baseUrl: server.baseUrl, options: {} });
			expect((await attempt(model, request())).result!.text).toBe('local');
			expect(server.requests[0]!.headers['authorization']).toBe('Bearer ollama');
		} finally {
			await server.close();
		}
	});

	it('a hosted preset without a key fails before any request, naming its variable', async () => {
		const model = createModel({ type: 'grok', model: 'grok-4', options: {} });
		const { error } = await attempt(model, request());
		expect(error).toMatchObject({ kind: 'auth', message: 'XAI_API_KEY is not set' });
	});

	it('azure_openai uses the Azure client: deployment path, api-key header, api-version, max_completion_tokens', async () => {
		const server = await startLoopbackProvider('chat');
		try {
			server.say({ text: 'azure' });
			const root = server.baseUrl.replace(/\/v1$/, '');
			const model = createModel(
				{
					type: 'azure_openai',
					model: 'gpt-4o-mini',
					apiKey: testKey,
					baseUrl: root,
					maxTokens: 50,
					options: { api_version: '2024-10-21' },
				},
				{ keyVariable: 'AZURE_OPENAI_API_KEY' },
			);
			const { result } = await attempt(model, request());
			expect(result!.text).toBe('azure');
			const recorded = server.requests[0]!;
			expect(recorded.path).toBe('/openai/deployments/gpt-4o-mini/chat/completions');
			expect(recorded.query['api-version']).toBe('2024-10-21');
			expect(recorded.headers['api-key']).toBe(testKey);
			expect(recorded.body).toMatchObject({ max_completion_tokens: 50 });
		} finally {
			await server.close();
		}
	});
});
