import { describe, expect, it } from 'vitest';
import { agentLatencies, criticalPathMs, runRow } from '../../bench/realPathRow.js';

/**
 * Keeps `npm run bench`'s real-path rows runnable: one row (3 agents over Chat Completions through
 * dist/cli.js) fills its fields from the loopback server's log and the run's result.json.
 * Needs `npm run build:cli`. Figures are not asserted: speed belongs in the benchmark.
 */
describe('real-path benchmark row', () => {
	it('measures a 3-agent Chat Completions run from the server log', async () => {
		const spec = {
			label: 'smoke',
			protocols: ['chat'] as const,
			agents: 3,
			latencyMs: 40,
			skew: 0.25,
			style: 'tool-call-only',
			script: 'converge',
		} as const;
		const row = await runRow(spec);
		expect(row.status).toBe('completed');
		expect(Object.keys(row.requestsPerAgent)).toEqual(['a1', 'a2', 'a3']);
		// Every agent answers or votes through the server, and the winner presents.
		for (const count of Object.values(row.requestsPerAgent)) expect(count).toBeGreaterThanOrEqual(1);
		const perAgent = Object.values(row.requestsPerAgent).reduce((a, b) => a + b, 0);
		expect(perAgent).toBe(row.requests);
		expect(row.requests).toBeGreaterThanOrEqual(row.spec.agents + 1);
		expect(row.idealRequests).toBe(7);
		expect(row.abortedAfterOutput).toBeLessThanOrEqual(row.aborted);
		expect(row.promptChars).toBeGreaterThan(0);
		expect(row.toolSchemaBytes).toBeGreaterThan(0);
		expect(row.bodyBytes).toBeGreaterThan(row.toolSchemaBytes);
		expect(row.inputTokens).toBeGreaterThan(0);
		expect(row.startupMs).toBeGreaterThan(0);
		expect(row.exitMs).toBeGreaterThan(0);
		expect(row.wallMs).toBeGreaterThan(row.startupMs + row.exitMs);
		expect(row.winner).toMatch(/^a[123]$/);
		expect(row.criticalMs).toBeGreaterThan(row.startupMs);
		expect(row.coordinationRatio).toBeGreaterThan(0);
		expect(row.timeline).toHaveLength(row.requests);
		for (const entry of row.timeline) expect(entry.endMs).toBeGreaterThanOrEqual(entry.startMs);
	});

	it('derives the critical path from the configured latencies', () => {
		const spec = {
			label: 'x',
			protocols: ['chat'] as const,
			agents: 3,
			latencyMs: 400,
			skew: 0.5,
			style: 'text-first',
		} as const;
		const latencies = agentLatencies({ ...spec, script: 'converge' });
		expect(latencies).toEqual([200, 400, 600]);
		// Slowest answer + slowest vote + the winner's presentation.
		expect(criticalPathMs({ ...spec, script: 'converge' }, latencies, 1)).toBe(600 + 600 + 400);
		// a1 revises (2 × 200 ms, within the slowest answer); votes wait for it.
		expect(criticalPathMs({ ...spec, script: 'revise' }, [500, 400, 600], 0)).toBe(1000 + 600 + 500);
	});
});
