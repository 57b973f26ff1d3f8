import { expect, it } from 'vitest';
import { runModelCall, type ModelCallState } from '../../../src/core/agents/modelCall.js';
import { simulateCache } from '../../servers/cacheSimulation.js';
import { anthropicWire } from '../../servers/wire/anthropic.js';
import { createModel } from '../../../src/core/providers/createModel.js';
import type { ChatMessage } from '../../../src/core/providers/spec/model.js';
import { attempt, describeProviderContract, readFileTool, request, testKey } from './contract.js';

describeProviderContract(
	{
		protocol: 'anthropic',
		type: 'claude',
		model: 'claude-sonnet-4-5',
		keyVariable: 'ANTHROPIC_API_KEY',
		reportsReasoningTokens: false,
		// SDK 1.x sends the key as a Bearer token (0.x used x-api-key); accept either.
		authHeader: (headers) => headers['x-api-key'] ?? headers['authorization']?.replace(/^Bearer /, ''),
	},
	(ctx) => {
		it('reports input usage from message_start, so a call aborted mid-stream keeps it', async () => {
			const { server, model } = ctx();
			server.enqueue({
				turn: {
					text: ['one ', 'two ', 'three'],
					usage: { input: 5000, output: 40, cachedInput: 4000, cacheWrite: 500 },
				},
				stallAfter: 4,
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
				inputTokens: 5000,
				outputTokens: 1,
				cachedInputTokens: 4000,
				cacheWriteTokens: 500,
			});
		});

		it('sends Messages with input_schema tools, max_tokens and a cached system prompt', async () => {
			const { server, settings } = ctx();
			const model = createModel({ ...settings, temperature: 0.4, maxTokens: 2048 });
			server.say({ text: 'ok' });
			await attempt(model, request());
			const recorded = server.requests.at(-1)!;
			expect(recorded.path).toBe('/v1/messages');
			expect(recorded.headers['anthropic-version']).toBeTruthy();
			expect(recorded.body).toMatchObject({
				model: 'claude-sonnet-4-5',
				max_tokens: 2048,
				temperature: 0.4,
				stream: true,
				system: [{ type: 'text', text: 'You are a careful engineer.', cache_control: { type: 'ephemeral' } }],
				messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello?' }] }],
				tools: [
					{ name: 'read_file', description: readFileTool.description, input_schema: readFileTool.parameters },
				],
			});
		});

		it('puts cache breakpoints on the last tool, the system prompt, the stable prefix and the last message', async () => {
			const { server, model } = ctx();
			server.say({ text: 'ok' });
			const messages: ChatMessage[] = [
				{ role: 'user', content: 'Coordination prompt with every answer.' },
				{ role: 'assistant', content: 'Working.' },
				{ role: 'user', content: 'UPDATE: a new answer arrived.' },
			];
			const listTool = { ...readFileTool, name: 'list_directory' };
			await attempt(model, request({ messages, tools: [readFileTool, listTool], stablePrefixMessages: 1 }));
			const body = server.requests.at(-1)!.body as {
				tools: Record<string, unknown>[];
				system: Record<string, unknown>[];
				messages: { content: Record<string, unknown>[] }[];
			};
			const ephemeral = { type: 'ephemeral' };
			expect(body.tools.map((tool) => tool['cache_control'])).toEqual([undefined, ephemeral]);
			expect(body.system.at(-1)!['cache_control']).toEqual(ephemeral);
			expect(body.messages.map((m) => m.content.map((block) => block['cache_control']))).toEqual([
				[ephemeral],
				[undefined],
				[ephemeral],
			]);
			expect(JSON.stringify(body).match(/cache_control/g)).toHaveLength(4);
		});

		it('re-reads the previous call of a turn from the cache (loopback cache simulation)', async () => {
			const { server, model } = ctx();
			const system = 'You are a careful engineer. '.repeat(200);
			const first: ChatMessage[] = [{ role: 'user', content: 'Coordination prompt. '.repeat(200) }];
			server.say({ toolCalls: [{ id: 'toolu_1', name: 'read_file', arguments: { path: 'a.ts' } }] });
			const call = (await attempt(model, request({ system, messages: first, stablePrefixMessages: 1 })))
				.result!.toolCalls[0]!;
			const second: ChatMessage[] = [
				...first,
				{ role: 'assistant', content: '', toolCalls: [call] },
				{ role: 'tool', toolCallId: call.id, toolName: 'read_file', content: 'x'.repeat(8000) },
			];
			server.say({ toolCalls: [{ id: 'toolu_2', name: 'read_file', arguments: { path: 'b.ts' } }] });
			await attempt(model, request({ system, messages: second, stablePrefixMessages: 1 }));
			server.say({ text: 'done' });
			const third: ChatMessage[] = [
				...second,
				{ role: 'assistant', content: '', toolCalls: [{ ...call, id: 'toolu_2' }] },
				{ role: 'tool', toolCallId: 'toolu_2', toolName: 'read_file', content: 'short' },
			];
			await attempt(model, request({ system, messages: third, stablePrefixMessages: 1 }));
			const segments = server.requests.slice(-3).map((r) => anthropicWire.promptSegments(r.body));
			const secondCache = simulateCache('anthropic', segments[1]!, segments.slice(0, 1));
			const thirdCache = simulateCache('anthropic', segments[2]!, segments.slice(0, 2));
			expect(secondCache.cachedInput).toBeGreaterThan(2000);
			// The third call also re-reads the second one's 8,000-character tool result (~2,000 tokens).
			expect(thirdCache.cachedInput).toBeGreaterThan(secondCache.cachedInput + 1900);
		});

		it('reports cache reads and writes; input counts every prompt token', async () => {
			const { server, model } = ctx();
			server.say({ text: 'ok', usage: { input: 5000, output: 40, cachedInput: 3000, cacheWrite: 1500 } });
			const { result } = await attempt(model, request());
			expect(result!.usage).toEqual({
				inputTokens: 5000,
				outputTokens: 40,
				cachedInputTokens: 3000,
				cacheWriteTokens: 1500,
			});
		});

		it('round-trips history: thinking blocks echoed, tool_use blocks, tool_result with is_error, merged user turn', async () => {
			const { server, model } = ctx();
			server.say({
				reasoning: 'Plan the reads.',
				toolCalls: [
					{ id: 'toolu_a', name: 'read_file', arguments: { path: 'a.ts' } },
					{ id: 'toolu_b', name: 'read_file', arguments: { path: 'missing.ts' } },
				],
			});
			const first = (await attempt(model, request())).result!;
			expect(first.providerData?.['anthropicThinkingBlocks']).toEqual([
				{ type: 'thinking', thinking: 'Plan the reads.', signature: 'sig_15' },
			]);
			const history: ChatMessage[] = [
				{ role: 'user', content: 'Hello?' },
				{
					role: 'assistant',
					content: first.text,
					toolCalls: first.toolCalls,
					providerData: first.providerData,
				},
				{ role: 'tool', toolCallId: 'toolu_a', toolName: 'read_file', content: 'export {}' },
				{
					role: 'tool',
					toolCallId: 'toolu_b',
					toolName: 'read_file',
					content: 'missing.ts: no such file',
					isError: true,
				},
			];
			server.say({ text: 'done' });
			await attempt(model, request({ messages: history, stablePrefixMessages: 3 }));
			const sent = (server.requests.at(-1)!.body as { messages: unknown[] }).messages;
			expect(sent).toEqual([
				{ role: 'user', content: [{ type: 'text', text: 'Hello?' }] },
				{
					role: 'assistant',
					content: [
						{ type: 'thinking', thinking: 'Plan the reads.', signature: 'sig_15' },
						{ type: 'tool_use', id: 'toolu_a', name: 'read_file', input: { path: 'a.ts' } },
						{ type: 'tool_use', id: 'toolu_b', name: 'read_file', input: { path: 'missing.ts' } },
					],
				},
				{
					role: 'user',
					content: [
						{
							type: 'tool_result',
							tool_use_id: 'toolu_a',
							content: 'export {}',
							cache_control: { type: 'ephemeral' },
						},
						{
							type: 'tool_result',
							tool_use_id: 'toolu_b',
							content: 'missing.ts: no such file',
							is_error: true,
							cache_control: { type: 'ephemeral' },
						},
					],
				},
			]);
		});

		it('passes thinking through, drops temperature with thinking and raises max_tokens above the budget', async () => {
			const { server, settings } = ctx();
			const model = createModel({
				...settings,
				temperature: 0.7,
				maxTokens: 1000,
				options: { thinking: { type: 'enabled', budget_tokens: 4000 } },
			});
			server.say({ text: 'ok' });
			await attempt(model, request());
			const body = server.requests.at(-1)!.body as Record<string, unknown>;
			expect(body['thinking']).toEqual({ type: 'enabled', budget_tokens: 4000 });
			expect(body).not.toHaveProperty('temperature');
			expect(body['max_tokens']).toBeGreaterThan(4000);
		});

		it('maps an overloaded_error event mid-stream to a retryable server error', async () => {
			const { server, model } = ctx();
			server.enqueue({
				events: [
					{
						event: 'message_start',
						data: {
							type: 'message_start',
							message: {
								id: 'm',
								type: 'message',
								role: 'assistant',
								model: 'x',
								content: [],
								usage: { input_tokens: 1, output_tokens: 1 },
							},
						},
					},
					{
						event: 'error',
						data: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
					},
				],
			});
			expect((await attempt(model, request())).error).toMatchObject({ kind: 'server', retryable: true });
		});

		it('maps 529 overloaded to a retryable server error', async () => {
			const { server, model } = ctx();
			server.enqueue({ status: 529, headers: { 'retry-after': '3' } });
			expect((await attempt(model, request())).error).toMatchObject({
				kind: 'server',
				status: 529,
				retryable: true,
				retryAfterMs: 3000,
			});
		});

		it('never sends the key in the body or URL', () => {
			for (const recorded of ctx().server.requests) {
				expect(recorded.rawBody).not.toContain(testKey);
				expect(JSON.stringify(recorded.query)).not.toContain(testKey);
			}
		});
	},
);
