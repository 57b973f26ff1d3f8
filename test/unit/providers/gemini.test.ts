import { expect, it } from 'vitest';
import { runModelCall, type ModelCallState } from '../../../src/core/agents/modelCall.js';
import { createModel } from '../../../src/core/providers/createModel.js';
import type { ChatMessage } from '../../../src/core/providers/spec/model.js';
import { attempt, describeProviderContract, readFileTool, request, testKey } from './contract.js';

describeProviderContract(
	{
		protocol: 'gemini',
		type: 'gemini',
		model: 'gemini-2.5-flash',
		keyVariable: 'GEMINI_API_KEY',
		authHeader: (headers) => headers['x-goog-api-key'],
		wholeToolCalls: true,
	},
	(ctx) => {
		it('reports the running usageMetadata of each chunk, so a call aborted mid-stream keeps it', async () => {
			const { server, model } = ctx();
			const usageMetadata = { promptTokenCount: 3000, cachedContentTokenCount: 2500, totalTokenCount: 3000 };
			server.enqueue({
				events: [
					{ data: { candidates: [{ content: { role: 'model', parts: [{ text: 'Par' }] } }], usageMetadata } },
					{ data: { candidates: [{ content: { role: 'model', parts: [{ text: 'tial' }] } }] } },
				],
				stallAfter: -1,
			});
			const controller = new AbortController();
			const state: ModelCallState = { lastUsage: undefined };
			const listener = {
				onText: () => controller.abort(),
				onReasoning: () => undefined,
				onFirstOutput: () => undefined,
			};
			const call = runModelCall(model, request(), controller.signal, listener, state);
			await expect(call).rejects.toMatchObject({ kind: 'aborted' });
			expect(state.lastUsage).toEqual({
				inputTokens: 3000,
				outputTokens: 0,
				reasoningTokens: 0,
				cachedInputTokens: 2500,
			});
		});

		it('sends native function declarations (JSON Schema as parametersJsonSchema), system instruction, config', async () => {
			const { server, settings } = ctx();
			const model = createModel({ ...settings, temperature: 0.1, maxTokens: 512 });
			server.say({ text: 'ok' });
			await attempt(model, request());
			const recorded = server.requests.at(-1)!;
			expect(recorded.path).toBe('/v1beta/models/gemini-2.5-flash:streamGenerateContent');
			expect(recorded.query['alt']).toBe('sse');
			const body = recorded.body as Record<string, unknown>;
			expect(body).toMatchObject({
				contents: [{ role: 'user', parts: [{ text: 'Hello?' }] }],
				systemInstruction: { parts: [{ text: 'You are a careful engineer.' }] },
				tools: [
					{
						functionDeclarations: [
							{
								name: 'read_file',
								description: readFileTool.description,
								parametersJsonSchema: readFileTool.parameters,
							},
						],
					},
				],
				generationConfig: {
					temperature: 0.1,
					maxOutputTokens: 512,
					thinkingConfig: { includeThoughts: true },
				},
			});
			expect(recorded.rawBody).not.toContain('abortSignal');
			expect(recorded.rawBody).not.toContain('automaticContinuation');
		});

		it('generates ids for calls without one, and never sends made-up ids back', async () => {
			const { server, model } = ctx();
			server.say({ toolCalls: [{ name: 'read_file', arguments: { path: 'a.ts' }, signature: 'c2lnLWE=' }] });
			const first = (await attempt(model, request())).result!;
			const call = first.toolCalls[0]!;
			expect(call.id).toMatch(/^gemini_call_/);
			expect(call.providerData).toEqual({ thoughtSignature: 'c2lnLWE=' });
			const history: ChatMessage[] = [
				{ role: 'user', content: 'Hello?' },
				{ role: 'assistant', content: '', toolCalls: [call] },
				{ role: 'tool', toolCallId: call.id, toolName: 'read_file', content: 'export {}' },
			];
			server.say({ text: 'done' });
			await attempt(model, request({ messages: history }));
			const contents = (server.requests.at(-1)!.body as { contents: unknown[] }).contents;
			expect(contents).toEqual([
				{ role: 'user', parts: [{ text: 'Hello?' }] },
				{
					role: 'model',
					parts: [
						{ functionCall: { name: 'read_file', args: { path: 'a.ts' } }, thoughtSignature: 'c2lnLWE=' },
					],
				},
				{
					role: 'user',
					parts: [{ functionResponse: { name: 'read_file', response: { output: 'export {}' } } }],
				},
			]);
		});

		it('round-trips provider ids, text signatures, and marks failed tool results as errors', async () => {
			const { server, model } = ctx();
			server.enqueue({
				events: [
					{
						data: {
							candidates: [
								{
									content: { role: 'model', parts: [{ text: 'Reading.', thoughtSignature: 'dGV4dA==' }] },
									index: 0,
								},
							],
						},
					},
					{
						data: {
							candidates: [
								{
									content: {
										role: 'model',
										parts: [
											{ functionCall: { id: 'fc_1', name: 'read_file', args: { path: 'a.ts' } } },
											{ functionCall: { id: 'fc_2', name: 'read_file', args: { path: 'b.ts' } } },
										],
									},
									finishReason: 'STOP',
									index: 0,
								},
							],
							usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
						},
					},
				],
			});
			const first = (await attempt(model, request())).result!;
			expect(first.toolCalls.map((c) => c.id)).toEqual(['fc_1', 'fc_2']);
			expect(first.finishReason).toBe('tool-calls');
			const history: ChatMessage[] = [
				{ role: 'user', content: 'Hello?' },
				{
					role: 'assistant',
					content: first.text,
					toolCalls: first.toolCalls,
					providerData: first.providerData,
				},
				{ role: 'tool', toolCallId: 'fc_1', toolName: 'read_file', content: 'export {}' },
				{
					role: 'tool',
					toolCallId: 'fc_2',
					toolName: 'read_file',
					content: 'b.ts: no such file',
					isError: true,
				},
			];
			server.say({ text: 'done' });
			await attempt(model, request({ messages: history }));
			const contents = (server.requests.at(-1)!.body as { contents: unknown[] }).contents;
			expect(contents.slice(1)).toEqual([
				{
					role: 'model',
					parts: [
						{ text: 'Reading.', thoughtSignature: 'dGV4dA==' },
						{ functionCall: { id: 'fc_1', name: 'read_file', args: { path: 'a.ts' } } },
						{ functionCall: { id: 'fc_2', name: 'read_file', args: { path: 'b.ts' } } },
					],
				},
				{
					role: 'user',
					parts: [
						{ functionResponse: { id: 'fc_1', name: 'read_file', response: { output: 'export {}' } } },
						{
							functionResponse: { id: 'fc_2', name: 'read_file', response: { error: 'b.ts: no such file' } },
						},
					],
				},
			]);
		});

		it('passes snake_case options through as Gemini config, leaving schemas untouched', async () => {
			const { server, settings } = ctx();
			const schema = { type: 'object', properties: { snake_case_field: { type: 'string' } } };
			const model = createModel({
				...settings,
				options: {
					thinking_config: { thinking_budget: 256, include_thoughts: false },
					top_p: 0.5,
					response_json_schema: schema,
					enable_web_search: true,
				},
			});
			server.say({ text: 'ok' });
			await attempt(model, request({ tools: [] }));
			const config = (server.requests.at(-1)!.body as { generationConfig: Record<string, unknown> })
				.generationConfig;
			expect(config).toMatchObject({
				thinkingConfig: { thinkingBudget: 256, includeThoughts: false },
				topP: 0.5,
				responseJsonSchema: schema,
			});
			expect(server.requests.at(-1)!.rawBody).not.toContain('enable_web_search');
		});

		it('reads RetryInfo from a 429 body when there is no retry-after header', async () => {
			const { server, model } = ctx();
			server.enqueue({
				status: 429,
				body: {
					error: {
						code: 429,
						message: 'Quota exceeded for metric generate_content_free_tier_requests',
						status: 'RESOURCE_EXHAUSTED',
						details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '17s' }],
					},
				},
			});
			expect((await attempt(model, request())).error).toMatchObject({
				kind: 'rate-limit',
				retryAfterMs: 17000,
			});
		});

		it('maps a 400 API_KEY_INVALID (how Gemini rejects keys) to auth', async () => {
			const { server, model } = ctx();
			server.enqueue({
				status: 400,
				body: {
					error: {
						code: 400,
						message: 'API key not valid. Please pass a valid API key.',
						status: 'INVALID_ARGUMENT',
						details: [{ reason: 'API_KEY_INVALID' }],
					},
				},
			});
			const { error } = await attempt(model, request());
			expect(error).toMatchObject({ kind: 'auth', retryable: false });
			expect(error!.message).toContain('GEMINI_API_KEY rejected (400)');
		});

		it('maps a blocked prompt and safety stops to content-filter', async () => {
			const { server, model } = ctx();
			server.enqueue({
				events: [
					{
						data: {
							promptFeedback: { blockReason: 'SAFETY' },
							usageMetadata: { promptTokenCount: 3, totalTokenCount: 3 },
						},
					},
				],
			});
			expect((await attempt(model, request())).result!.finishReason).toBe('content-filter');
		});

		it('never sends the key in the body or URL', () => {
			for (const recorded of ctx().server.requests) {
				expect(recorded.rawBody).not.toContain(testKey);
				expect(JSON.stringify(recorded.query)).not.toContain(testKey);
			}
		});
	},
);
