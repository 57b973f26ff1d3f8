import { describe, expect, it } from 'vitest';
import { formatEventLine } from '../../../../src/cli/display/formatEventLine.js';
import { renderStatusTable } from '../../../../src/cli/display/renderStatusTable.js';
import type { RunEvent, RunEventBody } from '../../../../src/contract/runEvents.js';
import { reduceRunEvents } from '../../../../src/protocol/reduceRun.js';
import { initialRunState } from '../../../../src/protocol/runState.js';

const events = (bodies: RunEventBody[]): RunEvent[] =>
	bodies.map((body, seq) => ({ runId: 'r1', seq, t: seq * 10, ...body }) as RunEvent);

const start: RunEventBody = {
	type: 'run-start',
	question: 'Why?',
	workspace: '/ws',
	agents: [{ agentId: 'a', anonId: 'agent1', provider: 'openai', model: 'gpt-5-mini' }],
	budget: {
		maxCostUsd: { limit: 0.05, source: '--max-cost' },
		maxTokens: { limit: 200_000, source: 'massgen.maxTokens' },
		spentUsd: 0,
		spentTokens: 0,
	},
};

describe('the CLI budget line', () => {
	it('run-start names the caps that apply and where they were set', () => {
		const [event] = events([start]);
		const line = formatEventLine(event!, reduceRunEvents(initialRunState(), [event!]));
		expect(line).toBe(
			'run r1: 1 agent: a (openai/gpt-5-mini); budget: $0.0500 (--max-cost), 200.0k tokens (massgen.maxTokens)',
		);
	});

	it('the live table header shows spent / cap', () => {
		const usage: RunEventBody = {
			type: 'usage',
			agentId: 'a',
			usage: { inputTokens: 100_000, outputTokens: 10_000 },
			costUsd: 0.045,
		};
		const state = reduceRunEvents(initialRunState(), events([start, usage]));
		const [header] = renderStatusTable(state, { width: 200 });
		expect(header).toContain(' · $0.0450 / $0.0500 · 110.0k / 200.0k tok · Why?');
	});

	it('budget-reached prints the reason', () => {
		const reason = 'cost budget reached: $0.0600 of $0.0500 (--max-cost)';
		const all = events([start, { type: 'budget-reached', kind: 'cost', limit: 0.05, spent: 0.06, reason }]);
		expect(formatEventLine(all[1]!, reduceRunEvents(initialRunState(), all))).toBe(
			`budget: ${reason}: no new model call starts`,
		);
	});
});
