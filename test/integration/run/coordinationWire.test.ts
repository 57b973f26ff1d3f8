/**
 * The coordination rules (docs/protocol.md) through the real adapters and SDKs against the loopback
 * wire servers: counts come from the servers' own request logs, not from our events.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../../src/contract/runEvents.js';
import { Orchestrator } from '../../../src/core/orchestrator/orchestrator.js';
import type { RunResult } from '../../../src/contract/runResult.js';
import { createModel } from '../../../src/core/providers/createModel.js';
import { createWorkspace } from '../../../src/core/workspace/createWorkspace.js';
import type { StreamStyle } from '../../servers/autoAgent.js';
import {
	startLoopbackProvider,
	type Latency,
	type LoopbackProtocol,
	type LoopbackProvider,
	type RecordedRequest,
} from '../../servers/loopbackProvider.js';
import { summarizeRequests } from '../../servers/requestSummary.js';
import { makeWorkspaceDir } from '../../fakes/team.js';
import { ManualClock } from '../../support/manualClock.js';

const backendTypes: Record<LoopbackProtocol, string> = {
	responses: 'openai',
	chat: 'chatcompletion',
	anthropic: 'claude',
	gemini: 'gemini',
};
const protocols = Object.keys(backendTypes) as LoopbackProtocol[];

const isCoordination = (request: RecordedRequest) =>
	request.prompt.tools.some((t) => t.name === 'new_answer');

// The adapters import their SDK at the first call. Under vitest that import waits on the runner's
// module RPC, which a manual clock cannot tell from idleness (it would jump to the run's timeout).
// Node's fetch loads at its first use too (reading a fetch global loads it): before the run, here.
beforeAll(() =>
	Promise.all([import('openai'), import('@anthropic-ai/sdk'), import('@google/genai'), globalThis.Response]),
);

let server: LoopbackProvider | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
});

/**
 * Agents m1…mN on one server; `latency(model, nthCoordinationCall)` shapes each reply. The server's
 * latency and the run's timers share one manual clock, so the times below are exact, not margins.
 */
async function runWire(
	protocol: LoopbackProtocol,
	agents: number,
	options: {
		readonly style: StreamStyle;
		readonly latency: (model: string, call: number) => Latency;
		readonly revisers?: readonly string[];
		/** Sees every event; aborting the signal cancels the run. */
		readonly onEvent?: (event: RunEvent, cancel: () => void) => void;
	},
): Promise<{
	result: RunResult;
	requests: readonly RecordedRequest[];
	byModel: (model: string) => RecordedRequest[];
}> {
	const calls = new Map<string, number>();
	const clock = new ManualClock();
	server = await startLoopbackProvider(protocol, {
		clock,
		auto: { name: protocol, style: options.style, revisers: options.revisers ?? [] },
		latency: (request) => {
			const n = (calls.get(request.model) ?? 0) + 1;
			calls.set(request.model, n);
			return options.latency(request.model, n);
		},
	});
	const controller = new AbortController();
	const models = Array.from({ length: agents }, (_, i) => `m${i + 1}`);
	const workspace = await createWorkspace(makeWorkspaceDir({ 'a.ts': 'export const a = 1;\n' }));
	const orchestrator = new Orchestrator({
		question: 'What does a.ts export?',
		workspace,
		agents: models.map((model) => ({
			id: model,
			model: createModel({
				type: backendTypes[protocol],
				model,
				baseUrl: server!.baseUrl,
				apiKey: `loopback-${protocol}-key`,
				options: {},
			}),
		})),
		anonymousOrder: 'config',
		settings: { retryBaseDelayMs: 1 },
		signal: controller.signal,
		clock,
	});
	await clock.drive(
		(async () => {
			for await (const event of orchestrator.run()) options.onEvent?.(event, () => controller.abort());
		})(),
	);
	await clock.drive(Promise.all(server.requests.map((request) => request.settled)));
	const requests = server.requests;
	return {
		result: orchestrator.result!,
		requests,
		byModel: (model) => requests.filter((r) => r.model === model),
	};
}

const ms = (firstByteMs: number, streamMs: number): Latency => ({ firstByteMs, streamMs });

describe.each(protocols)('coordination on the wire (%s)', (protocol) => {
	it.each([1, 50, 1_500])(
		'answers landing %i ms apart: all accepted in one round, 2N + 1 requests, none aborted',
		async (gapMs) => {
			const base = { m1: 0, m2: gapMs / 2, m3: gapMs } as Record<string, number>;
			const { result, requests } = await runWire(protocol, 3, {
				style: 'tool-call-only',
				latency: (model, call) => (call === 1 ? ms(150 + base[model]!, 150) : ms(100, 100)),
			});
			expect(result.status).toBe('completed');
			const summary = summarizeRequests(requests);
			expect(summary.requests).toBe(7);
			expect(summary.closedByClient).toBe(0);
			expect(result.answers.map((a) => a.label).sort()).toEqual(['agent1.1', 'agent2.1', 'agent3.1']);
			// Each vote saw all three answers: its request offered all three ids.
			const votes = requests.filter((r) => isCoordination(r) && r.prompt.texts.join('\n').includes('agent3'));
			expect(votes).toHaveLength(3);
		},
	);

	it('a tool-call-only vote hit by a revision mid-stream finishes; its stale vote gets the update in the same conversation', async () => {
		// The first answers take 2 s to their first output, so every vote is young (under half of it)
		// when m1's revision lands 220 ms into the votes; m2's and m3's votes have been streaming their
		// tool calls since 20 ms in, so they finish.
		const { result, requests, byModel } = await runWire(protocol, 3, {
			style: 'tool-call-only',
			revisers: ['m1'],
			latency: (model, call) =>
				call === 1 ? ms(2_000, 50) : model === 'm1' && call === 2 ? ms(200, 20) : ms(20, 800),
		});
		expect(result.status).toBe('completed');
		expect(summarizeRequests(requests).closedByClient).toBe(0);
		for (const model of ['m2', 'm3']) {
			const coordination = byModel(model).filter(isCoordination);
			expect(coordination).toHaveLength(3);
			expect(coordination[2]!.prompt.lastToolResult).toContain('Vote not counted');
		}
		expect(result.answers.find((a) => a.agentId === 'm1')?.label).toBe('agent1.2');
	});

	it('a silent (thinking) vote is dropped and re-issued with the update only while it is young', async () => {
		// The votes start together once the last first answer has landed (~3 s: m2's first output took
		// 3 s). m1's revision lands 700 ms into them: m2's vote is under half its usual 3 s (dropped,
		// re-issued with the update; it would have streamed only at 2.5 s); m3's is far past half its
		// usual 40 ms (kept: it finishes, then gets the update in the same conversation).
		const first: Record<string, Latency> = { m1: ms(300, 50), m2: ms(3_000, 50), m3: ms(40, 50) };
		const { result, requests, byModel } = await runWire(protocol, 3, {
			style: 'tool-call-only',
			revisers: ['m1'],
			latency: (model, call) => {
				if (call === 1) return first[model]!;
				if (model === 'm1' && call === 2) return ms(690, 10);
				if (model === 'm2' && call === 2) return ms(2_500, 50);
				return ms(400, 50);
			},
		});
		expect(result.status).toBe('completed');
		const m2 = byModel('m2').filter(isCoordination);
		expect(m2.map((r) => r.closedByClient)).toEqual([false, true, false]);
		expect(m2[2]!.prompt.texts.join('\n')).toContain('UPDATE');
		const summary = summarizeRequests(requests);
		expect(summary.closedByClient).toBe(1);
		expect(summary.closedAfterOutput).toBe(0);
		expect(result.usage.find((u) => u.agentId === 'm2')?.abortedCalls).toBe(1);
		expect(result.usage.find((u) => u.agentId === 'm3')?.abortedCalls).toBe(0);
	});

	it('a call stopped mid-stream is counted with the tokens the provider had reported', async () => {
		// A single agent presents at once; the run is cancelled once its text is streaming.
		const aborted: RunEvent[] = [];
		const { result, requests } = await runWire(protocol, 1, {
			style: 'text-first',
			latency: () => ms(10, 3_000),
			onEvent: (event, cancel) => {
				if (event.type === 'text-delta') cancel();
				if (event.type === 'call-aborted') aborted.push(event);
			},
		});
		expect(result.status).toBe('cancelled');
		expect(requests.map((r) => r.closedByClient)).toEqual([true]);
		expect(aborted).toMatchObject([
			{ agentId: 'm1', reason: 'stopped', hadOutput: true, phase: 'presentation' },
		]);
		const usage = result.usage.find((u) => u.agentId === 'm1')!;
		expect(usage.abortedCalls).toBe(1);
		// Anthropic reports input tokens at message start; the OpenAI APIs (and this Gemini server) only at the end.
		expect(usage.inputTokens > 0).toBe(protocol === 'anthropic');
	});
});
