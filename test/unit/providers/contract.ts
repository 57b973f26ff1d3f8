import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { BackendSettings } from '../../../src/core/providers/spec/backendSettings.js';
import { runModelCall } from '../../../src/core/agents/modelCall.js';
import { createModel } from '../../../src/core/providers/createModel.js';
import { generate } from '../../../src/core/providers/shared/generate.js';
import type {
	ChatMessage,
	ChatModel,
	ChatRequest,
	ModelEvent,
} from '../../../src/core/providers/spec/model.js';
import { ProviderError } from '../../../src/core/providers/spec/providerError.js';
import {
	startLoopbackProvider,
	type LoopbackProtocol,
	type LoopbackProvider,
} from '../../servers/loopbackProvider.js';
import { simulateCache } from '../../servers/cacheSimulation.js';
import type { WireProtocol } from '../../servers/types.js';
import { anthropicWire } from '../../servers/wire/anthropic.js';
import { chatWire } from '../../servers/wire/chat.js';
import { geminiWire } from '../../servers/wire/gemini.js';
import { responsesWire } from '../../servers/wire/responses.js';

const wires: Record<LoopbackProtocol, WireProtocol> = {
	responses: responsesWire,
	chat: chatWire,
	anthropic: anthropicWire,
	gemini: geminiWire,
};

export const testKey = 'sk-loopback-SECRET-0123456789abcdef';

export const readFileTool = {
	name: 'read_file',
	description: 'Read a file of the workspace.',
	parameters: {
		type: 'object',
		properties: { path: { type: 'string' } },
		required: ['path'],
		additionalProperties: false,
	},
};

export function request(overrides: Partial<ChatRequest> = {}): ChatRequest {
	return {
		system: 'You are a careful engineer.',
		messages: [{ role: 'user', content: 'Hello?' }],
		tools: [readFileTool],
		...overrides,
	};
}

/** Runs one call and returns its events, or the ProviderError it threw (anything else fails the test). */
export async function attempt(model: ChatModel, req: ChatRequest, signal = new AbortController().signal) {
	try {
		return { result: await generate(model, req, signal), error: undefined };
	} catch (error) {
		if (!ProviderError.is(error)) throw error;
		return { result: undefined, error };
	}
}

export interface ContractOptions {
	readonly protocol: LoopbackProtocol;
	/** Backend type used with `createModel`. */
	readonly type: string;
	readonly model: string;
	readonly keyVariable: string;
	/** Header that must carry the key, and how it appears. */
	readonly authHeader: (headers: Readonly<Record<string, string>>) => string | undefined;
	readonly extraOptions?: Record<string, unknown>;
	/** Anthropic reports no separate count of thinking tokens (they are part of output). */
	readonly reportsReasoningTokens?: boolean;
	/** Gemini sends each function call whole, so one tool-call-delta precedes it, not one per chunk. */
	readonly wholeToolCalls?: boolean;
}

/**
 * The behaviour every adapter shares, driven through the real SDK against a loopback server:
 * the per-protocol test files run this, then their own wire-format assertions.
 */
export function describeProviderContract(
	options: ContractOptions,
	extra?: (ctx: () => ContractContext) => void,
): void {
	describe(`${options.type} over ${options.protocol} (contract)`, () => {
		let server: LoopbackProvider;
		let model: ChatModel;
		const logs: string[] = [];
		const ctx = (): ContractContext => ({ server, model, settings: settingsFor(server) });

		function settingsFor(s: LoopbackProvider): BackendSettings {
			return {
				type: options.type,
				model: options.model,
				apiKey: testKey,
				baseUrl: s.baseUrl,
				options: options.extraOptions ?? {},
			};
		}

		beforeAll(async () => {
			server = await startLoopbackProvider(options.protocol);
			model = createModel(settingsFor(server), { keyVariable: options.keyVariable });
			for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
				vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
					logs.push(args.map(String).join(' '));
				});
			}
		});
		afterAll(async () => {
			vi.restoreAllMocks();
			expect(logs.join('\n')).not.toContain(testKey);
			expect(server.unexpected).toBe(0);
			await server.close();
		});

		it('streams text as deltas and finishes with stop', async () => {
			server.say({ text: ['Hel', 'lo, ', 'world'] });
			const { result } = await attempt(model, request());
			const deltas = result!.events
				.filter((e) => e.type === 'text-delta')
				.map((e) => (e as { text: string }).text);
			expect(deltas).toEqual(['Hel', 'lo, ', 'world']);
			expect(result!.finishReason).toBe('stop');
			expect(result!.events.at(-1)?.type).toBe('finish');
			expect(options.authHeader(server.requests.at(-1)!.headers)).toBe(testKey);
		});

		it('assembles a tool call split across many deltas', async () => {
			const args = { path: 'src/deeply/nested/module/file.ts', note: 'ünïcödé "quotes" {braces}' };
			server.say({
				text: 'Let me look.',
				toolCalls: [{ id: 'call_split', name: 'read_file', arguments: args, chunks: 12 }],
			});
			const { result } = await attempt(model, request());
			expect(result!.toolCalls).toHaveLength(1);
			expect(result!.toolCalls[0]).toMatchObject({ name: 'read_file', arguments: args });
			expect(result!.toolCalls[0]!.parseError).toBeUndefined();
			expect(result!.finishReason).toBe('tool-calls');
		});

		it('signals a streaming tool call with tool-call-delta events before the call itself', async () => {
			server.say({
				toolCalls: [
					{ name: 'read_file', arguments: { path: 'src/first/file.ts' }, chunks: 6 },
					{ name: 'read_file', arguments: { path: 'src/second/file.ts' }, chunks: 6 },
				],
			});
			const { result } = await attempt(model, request());
			const events = result!.events;
			const callAt = events.flatMap((e, i) => (e.type === 'tool-call' ? [i] : []));
			expect(callAt).toHaveLength(2);
			for (const [index, at] of callAt.entries()) {
				const deltas = events.slice(0, at).filter((e) => e.type === 'tool-call-delta' && e.index === index);
				expect(deltas.length).toBeGreaterThanOrEqual(options.wholeToolCalls ? 1 : 6);
			}
			expect(events.find((e) => e.type !== 'usage')?.type).toBe('tool-call-delta');
		});

		it('counts a tool call that is still streaming as output (runModelCall: onFirstOutput)', async () => {
			// The stream stalls inside the call (Gemini's is whole: after it): only a delta can signal output.
			server.enqueue({
				turn: { toolCalls: [{ name: 'read_file', arguments: { path: 'src/a.ts' }, chunks: 6 }] },
				stallAfter: options.wholeToolCalls ? 1 : 3,
			});
			const controller = new AbortController();
			const guard = setTimeout(() => controller.abort(), 5000);
			let firstOutput = false;
			const call = runModelCall(model, request(), controller.signal, {
				onText: () => undefined,
				onReasoning: () => undefined,
				onFirstOutput: () => {
					firstOutput = true;
					controller.abort();
				},
			});
			await expect(call).rejects.toMatchObject({ kind: 'aborted' });
			clearTimeout(guard);
			expect(firstOutput).toBe(true);
		});

		it('sends each tool once, in the order given', async () => {
			const tools = ['read_file', 'list_directory', 'new_answer'].map((name) => ({ ...readFileTool, name }));
			server.say({ text: 'ok' });
			await attempt(model, request({ tools }));
			expect(server.requests.at(-1)!.prompt.tools.map((tool) => tool.name)).toEqual(tools.map((t) => t.name));
		});

		it('sends a growing conversation with the earlier call as its prefix (prompt caching)', async () => {
			const system = 'You are a careful engineer. '.repeat(200);
			const first: ChatMessage[] = [{ role: 'user', content: 'Coordination prompt. '.repeat(300) }];
			server.say({ toolCalls: [{ id: 'call_1', name: 'read_file', arguments: { path: 'a.ts' } }] });
			const sent = await attempt(model, request({ system, messages: first, stablePrefixMessages: 1 }));
			const call = sent.result!.toolCalls[0]!;
			const second: ChatMessage[] = [
				...first,
				{ role: 'assistant', content: '', toolCalls: [call] },
				{ role: 'tool', toolCallId: call.id, toolName: 'read_file', content: 'export const a = 1;' },
			];
			server.say({ text: 'done' });
			await attempt(model, request({ system, messages: second, stablePrefixMessages: 1 }));
			const [earlier, later] = server.requests
				.slice(-2)
				.map((r) => wires[options.protocol].promptSegments(r.body));
			// The whole first call (about 5,600 + 6,300 characters, ~3,000 tokens) is re-read from the cache.
			expect(simulateCache(options.protocol, later!, [earlier!]).cachedInput).toBeGreaterThan(2800);
		});

		it('returns two tool calls from one response, in order, with distinct ids', async () => {
			server.say({
				toolCalls: [
					{ name: 'read_file', arguments: { path: 'a.ts' } },
					{ name: 'read_file', arguments: { path: 'b.ts' } },
				],
			});
			const { result } = await attempt(model, request());
			expect(result!.toolCalls.map((c) => c.arguments)).toEqual([{ path: 'a.ts' }, { path: 'b.ts' }]);
			expect(new Set(result!.toolCalls.map((c) => c.id)).size).toBe(2);
			expect(result!.toolCalls.every((c) => c.id.length > 0)).toBe(true);
		});

		it('streams reasoning as reasoning-delta events, before the text', async () => {
			server.say({ reasoning: 'First, consider the edge cases.', text: 'Done.' });
			const { result } = await attempt(model, request());
			expect(result!.reasoning.trim()).toBe('First, consider the edge cases.');
			expect(result!.text).toBe('Done.');
			const types = result!.events.map((e) => e.type);
			expect(types.indexOf('reasoning-delta')).toBeLessThan(types.indexOf('text-delta'));
		});

		it('reports usage, normalised (input includes cached, output includes reasoning)', async () => {
			server.say({ text: 'ok', usage: { input: 1200, output: 300, reasoning: 100, cachedInput: 1000 } });
			const { result } = await attempt(model, request());
			expect(result!.usage).toMatchObject({ inputTokens: 1200, outputTokens: 300, cachedInputTokens: 1000 });
			if (options.reportsReasoningTokens !== false) expect(result!.usage!.reasoningTokens).toBe(100);
			const types = result!.events.map((e) => e.type);
			expect(types.slice(-2)).toEqual(['usage', 'finish']);
		});

		it('maps 429 with retry-after to a retryable rate-limit error (no SDK retry), then succeeds', async () => {
			const before = server.requests.length;
			server.enqueue({
				status: 429,
				headers: { 'retry-after': '2' },
				message: 'Rate limit reached, slow down',
			});
			const first = await attempt(model, request());
			expect(first.error).toMatchObject({
				kind: 'rate-limit',
				status: 429,
				retryable: true,
				retryAfterMs: 2000,
			});
			expect(server.requests.length - before).toBe(1);
			server.say({ text: 'after the wait' });
			const second = await attempt(model, request());
			expect(second.result!.text).toBe('after the wait');
		});

		it('reads retry-after-ms in preference to retry-after', async () => {
			server.enqueue({ status: 429, headers: { 'retry-after-ms': '1500', 'retry-after': '9' } });
			const { error } = await attempt(model, request());
			expect(error).toMatchObject({ kind: 'rate-limit', retryAfterMs: 1500 });
		});

		it('maps 500 to a retryable server error, sent once', async () => {
			const before = server.requests.length;
			server.enqueue({ status: 500, message: 'internal failure' });
			const { error } = await attempt(model, request());
			expect(error).toMatchObject({ kind: 'server', status: 500, retryable: true });
			expect(server.requests.length - before).toBe(1);
			server.say({ text: 'recovered' });
			expect((await attempt(model, request())).result!.text).toBe('recovered');
		});

		it('maps 401 to a non-retryable auth error naming the variable, never the key', async () => {
			const before = server.requests.length;
			server.enqueue({ status: 401, message: `Incorrect API key provided: ${testKey}` });
			const { error } = await attempt(model, request());
			expect(error).toMatchObject({ kind: 'auth', status: 401, retryable: false });
			expect(error!.message).toContain(`${options.keyVariable} rejected (401)`);
			expect(error!.message).not.toContain(testKey);
			expect(server.requests.length - before).toBe(1);
		});

		it('maps a context-length 400 to context-length', async () => {
			server.enqueue({
				status: 400,
				message: "This model's maximum context length is 128000 tokens. prompt is too long",
			});
			const { error } = await attempt(model, request());
			expect(error).toMatchObject({ kind: 'context-length', retryable: false });
		});

		it('maps a connection cut mid-stream to a retryable network error', async () => {
			server.enqueue({ turn: { text: ['one ', 'two ', 'three ', 'four'] }, cutAfter: 3 });
			const events: ModelEvent[] = [];
			let caught: unknown;
			try {
				for await (const event of model.stream(request(), new AbortController().signal)) events.push(event);
			} catch (error) {
				caught = error;
			}
			expect(ProviderError.is(caught)).toBe(true);
			expect((caught as ProviderError).kind).toBe('network');
			expect((caught as ProviderError).retryable).toBe(true);
			expect(events.some((e) => e.type === 'finish')).toBe(false);
		});

		it('maps a stream that ends early without its terminal event to invalid-response', async () => {
			server.enqueue({ turn: { text: ['one ', 'two ', 'three ', 'four'] }, endAfter: 3 });
			const { error } = await attempt(model, request());
			expect(error?.kind).toBe('invalid-response');
		});

		it('returns invalid JSON arguments as a parse error on the call, without throwing', async () => {
			server.say({ toolCalls: [{ name: 'read_file', raw: '{"path": "a.ts", ', chunks: 3 }] });
			const { result, error } = await attempt(model, request());
			expect(error).toBeUndefined();
			const call = result!.toolCalls[0]!;
			expect(call.name).toBe('read_file');
			expect(call.arguments).toEqual({});
			expect(call.parseError).toBeTruthy();
			expect(call.rawArguments).toBe('{"path": "a.ts", ');
		});

		it('stops the HTTP stream at once on abort and throws aborted', async () => {
			server.enqueue({ turn: { text: ['partial ', 'answer ', 'never ', 'finished'] }, stallAfter: -1 });
			const controller = new AbortController();
			const events: ModelEvent[] = [];
			let caught: unknown;
			try {
				for await (const event of model.stream(request(), controller.signal)) {
					events.push(event);
					if (event.type === 'text-delta') controller.abort();
				}
			} catch (error) {
				caught = error;
			}
			expect(ProviderError.is(caught, 'aborted')).toBe(true);
			const recorded = server.requests.at(-1)!;
			await Promise.race([
				recorded.settled,
				new Promise((_, reject) => setTimeout(() => reject(new Error('server never saw the close')), 2000)),
			]);
			expect(recorded.closedByClient).toBe(true);
		});

		it('aborts a call that is waiting on the network (consumer blocked in next())', async () => {
			server.enqueue({ turn: { text: ['waiting ', 'for ', 'more'] }, stallAfter: -1 });
			const controller = new AbortController();
			const iterator = model.stream(request(), controller.signal)[Symbol.asyncIterator]();
			let first = await iterator.next();
			while (!first.done && first.value.type !== 'text-delta') first = await iterator.next();
			const recorded = server.requests.at(-1)!;
			const started = Date.now();
			setTimeout(() => controller.abort(), 30);
			let caught: unknown;
			try {
				for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
					/* drain what was already received */
				}
			} catch (error) {
				caught = error;
			}
			expect(ProviderError.is(caught, 'aborted')).toBe(true);
			expect(Date.now() - started).toBeLessThan(1500);
			await recorded.settled;
			expect(recorded.closedByClient).toBe(true);
		});

		it('throws aborted without a request when the signal is already aborted', async () => {
			const before = server.requests.length;
			const controller = new AbortController();
			controller.abort();
			const { error } = await attempt(model, request(), controller.signal);
			expect(error?.kind).toBe('aborted');
			expect(server.requests.length).toBe(before);
		});

		it('closes the HTTP stream when the consumer stops reading early', async () => {
			server.enqueue({ turn: { text: ['a', 'b', 'c', 'd'] }, stallAfter: -1 });
			for await (const event of model.stream(request(), new AbortController().signal)) {
				if (event.type === 'text-delta') break;
			}
			const recorded = server.requests.at(-1)!;
			await recorded.settled;
			expect(recorded.closedByClient).toBe(true);
		});

		extra?.(ctx);
	});
}

export interface ContractContext {
	readonly server: LoopbackProvider;
	readonly model: ChatModel;
	readonly settings: BackendSettings;
}
