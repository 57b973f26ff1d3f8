import { describe, expect, it } from 'vitest';
import { formatEventLine } from '../../../src/cli/display/formatEventLine.js';
import type { ModelEvent } from '../../../src/core/providers/spec/model.js';
import { runModelCall } from '../../../src/core/agents/modelCall.js';
import { providerToolEvent } from '../../../src/core/providers/shared/providerToolEvent.js';
import { reduceRunEvents } from '../../../src/protocol/reduceRun.js';
import { initialRunState } from '../../../src/protocol/runState.js';
import type { ChatModel } from '../../../src/core/providers/spec/model.js';
import { stamp } from '../protocol/eventFixtures.js';

/** A provider tool's run event: the lane shows it as a finished tool call, the CLI as one line. */
describe('provider-tool run events', () => {
	const search = providerToolEvent('bob', 'coordination', {
		id: 'srvtoolu_1',
		kind: 'search',
		query: 'vitest latest',
		sources: [
			{ title: 'Vitest', url: 'https://vitest.dev/' },
			{ title: 'https://npmjs.com/vitest', url: 'https://npmjs.com/vitest' },
		],
	});
	const code = providerToolEvent('bob', 'presentation', {
		id: 'ci_1',
		kind: 'code',
		code: 'print(1/0)',
		output: 'ZeroDivisionError',
		isError: true,
	});

	it('becomes a tool call with its result in the agent lane', () => {
		const bodies = [{ type: 'round-start' as const, agentId: 'bob', round: 1, snapshot: [] }, search, code];
		const state = reduceRunEvents(initialRunState(), stamp(bodies));
		const calls = state.agents['bob']!.toolCalls;
		expect(calls.map((c) => [c.callId, c.name, c.args, c.round, c.result?.isError, c.result?.text])).toEqual([
			[
				'srvtoolu_1',
				'web_search',
				{ query: 'vitest latest' },
				1,
				false,
				'Vitest — https://vitest.dev/\nhttps://npmjs.com/vitest',
			],
			['ci_1', 'code_execution', { code: 'print(1/0)' }, 1, true, 'ZeroDivisionError'],
		]);
	});

	it('prints one line on the CLI', () => {
		const [first, second] = stamp([search, code]);
		expect(formatEventLine(first!, initialRunState())).toBe('bob: web search "vitest latest" (2 pages)');
		expect(formatEventLine(second!, initialRunState())).toBe('bob: ran code on the provider: failed');
	});

	it('reaches the listener from the model stream, and a notice is not output', async () => {
		const events: ModelEvent[] = [
			{ type: 'notice', message: 'no search for this model' },
			{
				type: 'provider-tool',
				use: { id: 'x', kind: 'fetch', sources: [{ title: 'a', url: 'https://a.dev/' }] },
			},
			{ type: 'finish', reason: 'stop' },
		];
		const model: ChatModel = {
			provider: 'test',
			modelId: 'm',
			capabilities: { tools: true, reasoning: false },
			async *stream() {
				yield* events;
			},
		};
		const seen: string[] = [];
		await runModelCall(model, { system: '', messages: [], tools: [] }, new AbortController().signal, {
			onText: () => undefined,
			onReasoning: () => undefined,
			onFirstOutput: () => seen.push('first-output'),
			onNotice: (message) => seen.push(`notice: ${message}`),
			onProviderTool: (use) => seen.push(`tool: ${use.kind}`),
		});
		expect(seen).toEqual(['notice: no search for this model', 'first-output', 'tool: fetch']);
	});
});
