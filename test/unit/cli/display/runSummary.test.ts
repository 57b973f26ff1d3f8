import { describe, expect, it } from 'vitest';
import { formatEventLine } from '../../../../src/cli/display/formatEventLine.js';
import { runSummaryLines } from '../../../../src/cli/display/runSummary.js';
import type { RunEvent } from '../../../../src/contract/runEvents.js';
import type { RunResult } from '../../../../src/contract/runResult.js';
import { initialRunState } from '../../../../src/protocol/runState.js';

const base: RunResult = {
	runId: 'r',
	question: 'q',
	status: 'completed',
	winner: { agentId: 'a', label: 'agent1.1' },
	answers: [],
	votes: [],
	finalAnswer: 'x',
	changes: [],
	usage: [
		{
			agentId: 'a',
			inputTokens: 12_300,
			cachedInputTokens: 8_000,
			outputTokens: 450,
			calls: 3,
			costUsd: 0.0123,
		},
		{ agentId: 'b', inputTokens: 900, outputTokens: 120, calls: 1, costUsd: null },
	],
	durationMs: 1,
};

const line = (body: Record<string, unknown>) =>
	formatEventLine({ runId: 'r', seq: 1, t: 1, ...body } as RunEvent, initialRunState());

describe('the run summary and the steering lines on stderr', () => {
	it('why coordination ended with the saving, per-agent tokens (cached) and cost, the total against the caps', () => {
		const result: RunResult = {
			...base,
			coordination: {
				ended: 'quorum',
				quorum: { required: 2, votes: 2, label: 'agent1.1' },
				saved: { callsStopped: 1, agentsNotWaitedFor: ['c'], estimatedCostUsd: 0.004 },
			},
			steering: [{ id: 1, text: 'hi', noteOnly: false, t: 5 }],
			budget: {
				maxCostUsd: { limit: 0.05, source: '--max-cost' },
				maxTokens: { limit: 20_000, source: '--max-tokens' },
				spentUsd: 0.0123,
				spentTokens: 13_770,
			},
		};
		expect(runSummaryLines(result)).toEqual([
			'coordination ended: a quorum agreed (2 votes for agent1.1, 2 needed); saved: 1 call stopped, not waited for c, about $0.0040',
			'your messages: 1',
			'usage a: 12.3k in (8.0k cached), 450 out, $0.0123 (3 calls)',
			'usage b: 900 in, 120 out, no price (1 call)',
			'total: $0.0123 (some calls unpriced) of $0.0500 (--max-cost), 13.8k tokens of 20.0k (--max-tokens)',
		]);
		expect(runSummaryLines({ ...base, usage: [] })).toEqual([]);
	});

	it('steer, its deliveries and a coordination end that is news get a line; consensus does not', () => {
		expect(line({ type: 'steer', id: 2, text: 'use tabs', agents: ['a', 'b'], noteOnly: false })).toBe(
			'you → a, b (message 2, votes reset): use tabs',
		);
		expect(
			line({ type: 'steer', id: 3, text: 'fyi', agents: ['b'], targetAgentId: 'b', noteOnly: true }),
		).toBe('you → b (message 3, note: votes stand): fyi');
		expect(line({ type: 'steer-delivered', id: 2, agentId: 'a', phase: 'presentation' })).toBe(
			'a: reads your message 2 (presenting)',
		);
		expect(line({ type: 'coordination-end', ended: 'finished-by-user' })).toBe(
			'coordination ends: you finished it (finish now)',
		);
		expect(line({ type: 'coordination-end', ended: 'consensus' })).toBeNull();
	});
});
