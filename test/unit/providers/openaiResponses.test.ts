import { describe, expect, it } from 'vitest';
import { createModel } from '../../../src/core/providers/createModel.js';
import type { ChatMessage } from '../../../src/core/providers/spec/model.js';
import { attempt, describeProviderContract, readFileTool, request, testKey } from './contract.js';

const bearer = (headers: Readonly<Record<string, string>>) =>
	headers['authorization']?.replace(/^Bearer /, '');

describeProviderContract(
	{
		protocol: 'responses',
		type: 'openai',
		model: 'gpt-5-mini',
		keyVariable: 'OPENAI_API_KEY',
		authHeader: bearer,
	},
	(ctx) => {
		it('sends a stateless Responses request: instructions, flattened function tools, store false', async () => {
			const { server, settings } = ctx();
			const model = createModel({ ...settings, maxTokens: 900 });
			server.say({ text: 'ok' });
			await attempt(model, request());
			const body = server.requests.at(-1)!.body as Record<string, unknown>;
			expect(server.requests.at(-1)!.path).toBe('/v1/responses');
			expect(body).toMatchObject({
				model: 'gpt-5-mini',
				instructions: 'You are a careful engineer.',
				stream: true,
				store: false,
				max_output_tokens: 900,
				include: ['reasoning.encrypted_content'],
				input: [{ role: 'user', content: 'Hello?' }],
			});
			expect(body['tools']).toEqual([
				{
					type: 'function',
					name: 'read_file',
					description: readFileTool.description,
					parameters: readFileTool.parameters,
					strict: false,
				},
			]);
		});

		it("sends the caller's cache key as prompt_cache_key, and none without one", async () => {
			const { server, model } = ctx();
			server.say({ text: 'ok' });
			await attempt(model, request({ cacheKey: 'massgen-run1-agent1' }));
			expect(server.requests.at(-1)!.body).toMatchObject({ prompt_cache_key: 'massgen-run1-agent1' });
			server.say({ text: 'ok' });
			await attempt(model, request());
			expect(server.requests.at(-1)!.body).not.toHaveProperty('prompt_cache_key');
		});

		it('sends temperature to models that take it, never to reasoning models', async () => {
			const { server, settings } = ctx();
			server.say({ text: 'ok' });
			await attempt(createModel({ ...settings, model: 'gpt-4.1', temperature: 0.5 }), request());
			expect(server.requests.at(-1)!.body).toMatchObject({ model: 'gpt-4.1', temperature: 0.5 });
			expect(server.requests.at(-1)!.body).not.toHaveProperty('include');
			server.say({ text: 'ok' });
			await attempt(createModel({ ...settings, model: 'o4-mini', temperature: 0.5 }), request());
			expect(server.requests.at(-1)!.body).not.toHaveProperty('temperature');
		});

		it('passes reasoning and text options through, and drops framework keys', async () => {
			const { server, settings } = ctx();
			const model = createModel({
				...settings,
				options: {
					reasoning: { effort: 'low', summary: 'auto' },
					text: { verbosity: 'low' },
					enable_web_search: true,
					cwd: 'x',
				},
			});
			server.say({ text: 'ok' });
			await attempt(model, request({ providerOptions: { service_tier: 'flex' } }));
			const body = server.requests.at(-1)!.body as Record<string, unknown>;
			expect(body['reasoning']).toEqual({ effort: 'low', summary: 'auto' });
			expect(body['text']).toEqual({ verbosity: 'low' });
			expect(body['service_tier']).toBe('flex');
			expect(body).not.toHaveProperty('enable_web_search');
			expect(body).not.toHaveProperty('cwd');
		});

		it('round-trips history: reasoning items, function_call and function_call_output items', async () => {
			const { server, model } = ctx();
			server.say({
				reasoning: 'think',
				toolCalls: [{ id: 'call_1', name: 'read_file', arguments: { path: 'a.ts' } }],
			});
			const first = (await attempt(model, request())).result!;
			expect(first.providerData?.['openaiReasoningItems']).toHaveLength(1);
			const history: ChatMessage[] = [
				{ role: 'user', content: 'Hello?' },
				{ role: 'assistant', content: '', toolCalls: first.toolCalls, providerData: first.providerData },
				{ role: 'tool', toolCallId: 'call_1', toolName: 'read_file', content: 'no such file', isError: true },
			];
			server.say({ text: 'done' });
			await attempt(model, request({ messages: history }));
			const input = (server.requests.at(-1)!.body as { input: Record<string, unknown>[] }).input;
			expect(input.map((item) => item['type'] ?? item['role'])).toEqual([
				'user',
				'reasoning',
				'function_call',
				'function_call_output',
			]);
			expect(input[1]).toMatchObject({
				type: 'reasoning',
				encrypted_content: expect.stringMatching(/^enc_/),
			});
			expect(input[2]).toEqual({
				type: 'function_call',
				call_id: 'call_1',
				name: 'read_file',
				arguments: '{"path":"a.ts"}',
			});
			expect(input[3]).toEqual({ type: 'function_call_output', call_id: 'call_1', output: 'no such file' });
		});

		it('maps response.incomplete (max_output_tokens) to finish length', async () => {
			const { server, model } = ctx();
			server.say({ text: 'cut', finish: 'length' });
			expect((await attempt(model, request())).result!.finishReason).toBe('length');
		});

		it('maps response.failed and error events to typed errors', async () => {
			const { server, model } = ctx();
			server.enqueue({
				events: [
					{
						event: 'response.created',
						data: {
							type: 'response.created',
							sequence_number: 0,
							response: { id: 'r', status: 'in_progress', output: [] },
						},
					},
					{
						event: 'response.failed',
						data: {
							type: 'response.failed',
							sequence_number: 1,
							response: {
								id: 'r',
								status: 'failed',
								output: [],
								error: { code: 'server_error', message: 'boom' },
							},
						},
					},
				],
			});
			expect((await attempt(model, request())).error).toMatchObject({ kind: 'server', retryable: true });
			server.enqueue({
				events: [
					{
						event: 'error',
						data: { type: 'error', sequence_number: 0, code: 'rate_limit_exceeded', message: 'slow down' },
					},
				],
			});
			expect((await attempt(model, request())).error).toMatchObject({ kind: 'rate-limit' });
		});

		it('maps an SSE event with broken JSON to invalid-response', async () => {
			const { server, model } = ctx();
			server.enqueue({ events: [{ event: 'response.created', data: '{"type": "response.created", ' }] });
			expect((await attempt(model, request())).error).toMatchObject({
				kind: 'invalid-response',
				retryable: false,
			});
		});

		it('never sends the key anywhere but the Authorization header', async () => {
			const { server } = ctx();
			for (const recorded of server.requests) {
				expect(recorded.rawBody).not.toContain(testKey);
				expect(JSON.stringify(recorded.query)).not.toContain(testKey);
			}
		});
	},
);

describe('openai adapter without a key', () => {
	it('fails with an auth error naming the variable, before any request', async () => {
		const model = createModel({
			type: 'openai',
			model: 'gpt-5',
			baseUrl: 'http://127.0.0.1:9/v1',
			options: {},
		});
		const { error } = await attempt(model, request());
		expect(error).toMatchObject({ kind: 'auth', retryable: false });
		expect(error!.message).toBe('OPENAI_API_KEY is not set');
	});
});
