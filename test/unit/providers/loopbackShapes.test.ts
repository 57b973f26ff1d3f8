import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createModel } from '../../../src/core/providers/createModel.js';
import type { ChatModel, ModelEvent } from '../../../src/core/providers/spec/model.js';
import {
	startLoopbackProvider,
	type LoopbackProtocol,
	type LoopbackProvider,
} from '../../servers/loopbackProvider.js';
import { summarizeRequests } from '../../servers/requestSummary.js';
import { attempt, request } from './contract.js';

/**
 * The loopback servers' latency, stream styles, accounting and cache simulation, each observed
 * through the official SDK of its protocol (the benchmark of the real path relies on them).
 */
const protocols: readonly { protocol: LoopbackProtocol; type: string }[] = [
	{ protocol: 'responses', type: 'openai' },
	{ protocol: 'chat', type: 'chatcompletion' },
	{ protocol: 'anthropic', type: 'claude' },
	{ protocol: 'gemini', type: 'gemini' },
];

const newAnswer = {
	name: 'new_answer',
	description: 'Submit an answer.',
	parameters: { type: 'object', properties: { content: { type: 'string' } }, required: ['content'] },
};
const question = '<ORIGINAL MESSAGE> What does a.ts export? </ORIGINAL MESSAGE>';
const coordination = request({ messages: [{ role: 'user', content: question }], tools: [newAnswer] });

const types = (events: readonly ModelEvent[]) => events.map((e) => e.type);

for (const { protocol, type } of protocols) {
	describe(`loopback ${protocol} through the ${type} SDK`, () => {
		const servers: LoopbackProvider[] = [];
		const start = async (options: Parameters<typeof startLoopbackProvider>[1]) => {
			const server = await startLoopbackProvider(protocol, options);
			servers.push(server);
			return server;
		};
		const modelOn = (server: LoopbackProvider, model: string): ChatModel =>
			createModel({ type, model, baseUrl: server.baseUrl, apiKey: 'loopback-key', options: {} });
		afterAll(() => Promise.all(servers.map((s) => s.close())));

		it('tool-call-only: no text, the call streams in pieces and parses into one call', async () => {
			const server = await start({ auto: { style: 'tool-call-only' } });
			const { result } = await attempt(modelOn(server, 'm1'), coordination);
			const seen = types(result!.events);
			expect(seen).not.toContain('text-delta');
			// Gemini sends a function call whole, in one part; the others stream its arguments.
			const deltas = seen.filter((t) => t === 'tool-call-delta').length;
			expect(deltas).toBeGreaterThanOrEqual(protocol === 'gemini' ? 1 : 4);
			expect(result!.toolCalls).toHaveLength(1);
			expect(result!.toolCalls[0]!.name).toBe('new_answer');
			expect(String(result!.toolCalls[0]!.arguments['content'])).toContain('What does a.ts export?');
		});

		it('reasoning-first: reasoning deltas, then the call, and no text', async () => {
			const server = await start({ auto: { style: 'reasoning-first' } });
			const { result } = await attempt(modelOn(server, 'm1'), coordination);
			const seen = types(result!.events);
			expect(seen).not.toContain('text-delta');
			expect(seen.indexOf('reasoning-delta')).toBeGreaterThanOrEqual(0);
			expect(seen.indexOf('reasoning-delta')).toBeLessThan(seen.indexOf('tool-call-delta'));
			expect(result!.reasoning).toContain('Weighing the question');
			expect(result!.toolCalls.map((c) => c.name)).toEqual(['new_answer']);
		});

		it('latency is keyed by the model: a slow model started first finishes after a fast one', async () => {
			const server = await start({
				auto: true,
				latency: { slow: { firstByteMs: 300, streamMs: 100 }, fast: { firstByteMs: 0, streamMs: 0 } },
			});
			const finished: string[] = [];
			const call = async (model: string) => {
				await attempt(modelOn(server, model), coordination);
				finished.push(model);
			};
			await Promise.all([call('slow'), call('fast')]);
			expect(finished).toEqual(['fast', 'slow']);
			expect(server.requests.map((r) => r.latency?.firstByteMs).sort()).toEqual([0, 300]);
		});

		it('accounts per request: prompt characters, tool-schema bytes, closes after output', async () => {
			const server = await start({ latency: { m2: { firstByteMs: 0, streamMs: 2_000 } } });
			server.say({ text: 'ok' });
			await attempt(modelOn(server, 'm1'), coordination);
			server.say({ text: ['a', 'b', 'c', 'd', 'e'] });
			const controller = new AbortController();
			for await (const event of modelOn(server, 'm2').stream(coordination, controller.signal)) {
				if (event.type === 'text-delta') break;
			}
			await server.requests[1]!.settled;
			const summary = summarizeRequests(server.requests);
			expect(summary.requests).toBe(2);
			expect(summary.perModel).toEqual({ m1: 1, m2: 1 });
			expect(summary.closedByClient).toBe(1);
			expect(summary.closedAfterOutput).toBe(1);
			const first = summary.each[0]!;
			expect(first.promptChars).toBe(coordination.system.length + question.length);
			expect(first.toolSchemaBytes).toBe(
				Buffer.byteLength(JSON.stringify((server.requests[0]!.body as { tools: unknown }).tools)),
			);
			expect(first.toolSchemaBytes).toBeGreaterThan(JSON.stringify(newAnswer.parameters).length);
			expect(first.bodyBytes).toBeGreaterThan(first.toolSchemaBytes);
			expect(summary.firstReceivedAt).toBe(first.receivedAt);
			expect(summary.lastSettledAt).toBeGreaterThanOrEqual(summary.each[1]!.receivedAt);
		});

		it('a close after the terminal event is not counted as closed by the client', async () => {
			// The pause after the last event leaves a window in which an SDK that stops at the
			// terminal event drops the connection before the server ends the response.
			const server = await start({ delayMs: 150 });
			server.say({ text: 'ok' });
			const { result } = await attempt(modelOn(server, 'm1'), coordination);
			expect(result!.text).toBe('ok');
			await server.requests[0]!.settled;
			expect(server.requests[0]!.closedByClient).toBe(false);
		});

		it('simulated prompt caching: a repeated prefix of the same model is reported as cached', async () => {
			const server = await start({ auto: true, simulateCache: true });
			// Long enough for OpenAI's and Gemini's 1,024-token minimum.
			const long = request({
				system: `You are a careful engineer. ${'Follow the house style. '.repeat(300)}`,
				messages: [{ role: 'user', content: question }],
				tools: [newAnswer],
			});
			const first = (await attempt(modelOn(server, 'm1'), long)).result!.usage!;
			const second = (await attempt(modelOn(server, 'm1'), long)).result!.usage!;
			const other = (await attempt(modelOn(server, 'm2'), long)).result!.usage!;
			expect(first.cachedInputTokens ?? 0).toBe(0);
			expect(second.cachedInputTokens).toBeGreaterThan(1_000);
			expect(second.cachedInputTokens).toBeLessThanOrEqual(second.inputTokens);
			expect(other.cachedInputTokens ?? 0).toBe(0);
			if (protocol === 'anthropic') {
				expect(summarizeRequests(server.requests).cacheControlMarks).toBeGreaterThan(0);
				expect(first.cacheWriteTokens).toBeGreaterThan(1_000);
			}
		});
	});
}

describe('auto-agent revisers', () => {
	let server: LoopbackProvider;
	beforeAll(async () => {
		server = await startLoopbackProvider('chat', { auto: { revisers: ['m1'] } });
	});
	afterAll(() => server.close());

	const vote = {
		name: 'vote',
		description: 'Vote.',
		parameters: { type: 'object', properties: { agent_id: { type: 'string', enum: ['agent1'] } } },
	};
	const withAnswers = (extra: string) =>
		request({
			messages: [{ role: 'user', content: `${question}\n<answer id="agent1">An answer.${extra}</answer>` }],
			tools: [newAnswer, vote],
		});

	it('a reviser answers again instead of voting, once; others vote', async () => {
		const model = (name: string) =>
			createModel({ type: 'chatcompletion', model: name, baseUrl: server.baseUrl, apiKey: 'k', options: {} });
		const revision = (await attempt(model('m1'), withAnswers(''))).result!.toolCalls[0]!;
		expect(revision.name).toBe('new_answer');
		const content = String(revision.arguments['content']);
		expect(content).toContain('Revised answer from m1');
		const after = (await attempt(model('m1'), withAnswers(` ${content}`))).result!.toolCalls[0]!;
		expect(after.name).toBe('vote');
		expect((await attempt(model('m2'), withAnswers(''))).result!.toolCalls[0]!.name).toBe('vote');
	});
});
