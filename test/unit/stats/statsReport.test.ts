import { describe, expect, it } from 'vitest';
import { leaderboard } from '../../../src/core/stats/leaderboard.js';
import type { AgentFacts, RunFacts } from '../../../src/core/stats/runFacts.js';
import { statsReport } from '../../../src/core/stats/statsReport.js';

const agent = (agentId: string, model: string, costUsd: number | null): AgentFacts => ({
	agentId,
	provider: 'openai',
	model,
	answers: 1,
	votesReceived: agentId === 'a' ? 2 : 0,
	votedFor: 'a',
	costUsd,
	inputTokens: 0,
	outputTokens: 0,
});

const run = (i: number, outcome: RunFacts['outcome']): RunFacts => ({
	runId: `r${i}`,
	startedAt: `2026-11-0${i}T00:00:00.000Z`,
	durationMs: 12_000,
	status: 'completed',
	winner: 'a',
	agents: [agent('a', 'gpt-4o', 0.02), agent('b', 'mini', null)],
	outcome,
	acceptedUnchanged: outcome === 'accepted',
	runnerUpHunksFrom: i === 1 ? ['b'] : [],
	plan: false,
});

const board = leaderboard(
	{
		runs: [run(1, 'accepted'), run(2, 'rejected'), run(3, 'none')],
		skipped: [{ runId: 'r9', reason: 'not made on this machine' }],
	},
	{ minRuns: 3 },
);

describe('statsReport', () => {
	it('prints the same figures as a text table and as Markdown', () => {
		const text = statsReport(board, 'text');
		expect(text).toContain(
			'3 runs; you accepted 50% of the decided changes. Rows with fewer than 3 runs are not ranked.',
		);
		const modelLines = text.split('Models:\n')[1]!.split('\n\n')[0]!.split('\n');
		expect(modelLines[0]!.split(/\s{2,}/)).toEqual([
			'#',
			'Model',
			'Runs',
			'Answers',
			'Won',
			'Votes got',
			'Agreed',
			'Accepted',
			'Unchanged',
			'Rejected',
			'Reverted',
			'Runner-up hunks',
			'$/run',
			'Time/run',
		]);
		expect(modelLines[1]!.trim().split(/\s{2,}/)).toEqual([
			'1',
			'openai/gpt-4o',
			'3',
			'3',
			'3',
			'6',
			'3/3',
			'1/2 (50%)',
			'1',
			'1',
			'0',
			'0',
			'$0.020',
			'12s',
		]);
		expect(modelLines[2]!.trim().split(/\s{2,}/)).toEqual([
			'2',
			'openai/mini',
			'3',
			'3',
			'0',
			'0',
			'3/3',
			'-',
			'0',
			'0',
			'0',
			'1',
			'?',
			'12s',
		]);
		expect(text).toContain('Skipped 1 run:\n  r9: not made on this machine');

		const md = statsReport(board, 'markdown');
		expect(md).toContain(
			'| 1 | openai/gpt\\-4o | 3 | 3 | 3 | 6 | 3/3 | 1/2 \\(50%\\) | 1 | 1 | 0 | 0 | \\$0\\.020 | 12s |',
		);
		expect(md).toContain('| 1 | team\\: openai/gpt\\-4o \\+ openai/mini |');
		expect(md).toContain('- r9\\: not made on this machine');
	});

	it('an unranked row has no rank and says why; no runs says so', () => {
		const few = leaderboard({ runs: [run(1, 'accepted')], skipped: [] });
		expect(statsReport(few, 'text')).toMatch(/\n-\s+openai\/gpt-4o \(too few runs\)/);
		expect(statsReport(leaderboard({ runs: [], skipped: [] }), 'text')).toBe(
			'No finished runs made on this machine.\n',
		);
	});
});
