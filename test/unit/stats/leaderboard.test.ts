import { describe, expect, it } from 'vitest';
import { leaderboard, type StatsRow } from '../../../src/core/stats/leaderboard.js';
import { readRunFacts, type AgentFacts, type RunFacts } from '../../../src/core/stats/runFacts.js';
import { suggestTeam } from '../../../src/core/stats/suggestTeam.js';
import { makeTree, makeWorkspaceDir } from '../../support/tempTree.js';
import { accept, reject, revert, writeRun } from './statsRuns.js';

function agent(agentId: string, model: string, extra: Partial<AgentFacts> = {}): AgentFacts {
	return {
		agentId,
		provider: 'p',
		model,
		answers: 1,
		votesReceived: 0,
		votedFor: null,
		costUsd: 0.01,
		inputTokens: 0,
		outputTokens: 0,
		...extra,
	};
}

let n = 0;
function run(winner: string | null, agents: AgentFacts[], extra: Partial<RunFacts> = {}): RunFacts {
	n++;
	return {
		runId: `r${n}`,
		startedAt: new Date(Date.UTC(2026, 10, 1, 0, n)).toISOString(),
		durationMs: 1000,
		status: 'completed',
		winner,
		agents,
		outcome: 'none',
		acceptedUnchanged: false,
		runnerUpHunksFrom: [],
		plan: false,
		...extra,
	};
}

const pick = (row: StatsRow) => [row.label, row.ranked, row.runs, row.wins];

describe('leaderboard', () => {
	it('counts per model, per agent and per team from generated run directories', async () => {
		const ws = makeWorkspaceDir();
		const env = { XDG_STATE_HOME: await makeTree() };
		const team = (a: object, b: object) => [
			{ id: 'a', provider: 'openai', model: 'gpt-4o', ...a },
			{ id: 'b', provider: 'anthropic', model: 'claude', ...b },
		];
		const r1 = await writeRun(ws, env, {
			runId: '20261101-100000-aaa1',
			agents: team({ votedFor: 'a', costUsd: 0.02 }, { votedFor: 'a', costUsd: 0.04 }),
			winner: 'a',
			changed: ['x.ts'],
			durationMs: 3000,
		});
		await accept(r1, ['x.ts']);
		const r2 = await writeRun(ws, env, {
			runId: '20261101-110000-aaa2',
			agents: team({ votedFor: 'b', costUsd: 0.02 }, { votedFor: 'b', costUsd: 0.04 }),
			winner: 'b',
			changed: ['x.ts'],
			durationMs: 5000,
		});
		await reject(r2, ['x.ts']);
		const r3 = await writeRun(ws, env, {
			runId: '20261101-120000-aaa3',
			agents: team({ votedFor: 'a', costUsd: 0.02, answers: 3 }, { votedFor: 'b', costUsd: 0.04 }),
			winner: 'a',
			changed: ['x.ts'],
			durationMs: 1000,
		});
		await accept(r3, ['x.ts'], { partial: true, runnerUpHunks: [{ path: 'x.ts', from: ['b'] }] });
		const r4 = await writeRun(ws, env, {
			runId: '20261101-130000-aaa4',
			agents: team({ votedFor: 'a', costUsd: 0.02 }, { votedFor: 'a', costUsd: null }),
			winner: 'a',
			changed: ['x.ts'],
			durationMs: 3000,
		});
		await accept(r4, ['x.ts']);
		await revert(r4, ['x.ts']);

		const board = leaderboard(await readRunFacts(ws, { env }), { minRuns: 4 });
		expect(board).toMatchObject({ since: null, minRuns: 4, runs: 4, skipped: [] });
		// Decided: r1 accepted, r2 rejected, r3 partly accepted, r4 reverted.
		expect(board.acceptanceRate).toBe(0.5);
		const gpt = board.models.find((row) => row.label === 'openai/gpt-4o')!;
		expect(gpt).toEqual({
			key: 'model:openai/gpt-4o',
			label: 'openai/gpt-4o',
			runs: 4,
			answers: 6,
			wins: 3,
			votesReceived: 5,
			votedRuns: 4,
			agreedWithFinal: 4,
			winsWithChanges: 3,
			acceptedUnchanged: 1,
			partlyAccepted: 1,
			rejected: 0,
			reverted: 1,
			runnerUpHunksTaken: 0,
			costPerRunUsd: 0.02,
			msPerRun: 3000,
			ranked: true,
		});
		const claude = board.models.find((row) => row.label === 'anthropic/claude')!;
		expect(claude).toMatchObject({
			wins: 1,
			votesReceived: 3,
			votedRuns: 4,
			agreedWithFinal: 3,
			winsWithChanges: 1,
			rejected: 1,
			runnerUpHunksTaken: 1,
		});
		// r4's price is unknown: the average is over the three runs whose cost is known.
		expect(claude.costPerRunUsd).toBeCloseTo(0.04);
		expect(board.models.map((row) => row.label)).toEqual(['openai/gpt-4o', 'anthropic/claude']);
		expect(board.agents.map((row) => row.label)).toEqual(['a · openai/gpt-4o', 'b · anthropic/claude']);
		expect(board.teams).toHaveLength(1);
		expect(board.teams[0]).toMatchObject({
			label: 'team: anthropic/claude + openai/gpt-4o',
			members: ['anthropic/claude', 'openai/gpt-4o'],
			runs: 4,
			wins: 4,
			acceptedChanges: 2,
			// One run's cost is unknown, so the cost per accepted change is too.
			costPerAcceptedChangeUsd: null,
		});
		expect(board.teams[0]!.costPerRunUsd).toBeCloseTo(0.06);
	});

	it('never ranks a row below minRuns, and ranks by acceptance, then win rate, then cost', () => {
		const runs = [
			// "cheap": 5 runs, wins 2 with changes, both accepted.
			...[0, 1].map(() =>
				run('c', [agent('c', 'cheap', { costUsd: 0.001 })], { outcome: 'accepted', acceptedUnchanged: true }),
			),
			...[0, 1, 2].map(() => run(null, [agent('c', 'cheap', { costUsd: 0.001 })])),
			// "dear": 5 runs, wins 5, 4 accepted of 5 decided.
			...[0, 1, 2, 3].map(() =>
				run('d', [agent('d', 'dear', { costUsd: 0.1 })], { outcome: 'accepted', acceptedUnchanged: true }),
			),
			run('d', [agent('d', 'dear', { costUsd: 0.1 })], { outcome: 'rejected' }),
			// "same": like "cheap" but dearer: ties on acceptance and win rate, loses on cost.
			...[0, 1].map(() =>
				run('s', [agent('s', 'same', { costUsd: 0.01 })], { outcome: 'accepted', acceptedUnchanged: true }),
			),
			...[0, 1, 2].map(() => run(null, [agent('s', 'same', { costUsd: 0.01 })])),
			// "new": perfect, but only 2 runs.
			...[0, 1].map(() =>
				run('n', [agent('n', 'new', { costUsd: 0 })], { outcome: 'accepted', acceptedUnchanged: true }),
			),
		];
		const board = leaderboard({ runs, skipped: [] });
		expect(board.minRuns).toBe(5);
		expect(board.models.map(pick)).toEqual([
			['p/cheap', true, 5, 2],
			['p/same', true, 5, 2],
			['p/dear', true, 5, 5],
			['p/new', false, 2, 2],
		]);
		// `since` leaves earlier runs out of every count.
		const later = leaderboard({ runs, skipped: [] }, { since: new Date(runs[10]!.startedAt) });
		expect(later.runs).toBe(runs.length - 10);
		expect(later.since).toBe(runs[10]!.startedAt);
	});

	it('suggests the cheapest ranked models that meet the acceptance rate, with evidence, or says why not', () => {
		const runs = [
			...[0, 1, 2, 3].map(() =>
				run('c', [agent('c', 'cheap', { costUsd: 0.001 }), agent('d', 'dear', { costUsd: 0.1 })], {
					outcome: 'accepted',
					acceptedUnchanged: true,
				}),
			),
			run('c', [agent('c', 'cheap', { costUsd: 0.001 }), agent('d', 'dear', { costUsd: 0.1 })], {
				outcome: 'rejected',
			}),
			...[0, 1, 2, 3, 4].map(() =>
				run('d', [agent('d', 'dear', { costUsd: 0.1 }), agent('m', 'mid', { costUsd: 0.01 })], {
					outcome: 'accepted',
					acceptedUnchanged: false,
				}),
			),
			...[0, 1, 2, 3, 4].map(() =>
				run('m', [agent('m', 'mid', { costUsd: 0.01 }), agent('c', 'cheap', { costUsd: 0.001 })], {
					outcome: 'reverted',
				}),
			),
		];
		const board = leaderboard({ runs, skipped: [] });
		// 9 of 15 decided changes accepted.
		expect(board.acceptanceRate).toBeCloseTo(0.6);
		const two = suggestTeam(board, { size: 2 });
		expect(two).toEqual({
			members: [expect.objectContaining({ label: 'p/cheap' }), expect.objectContaining({ label: 'p/dear' })],
			targetAcceptanceRate: 0.6,
			costPerRunUsd: expect.closeTo(0.101),
			evidence: [
				'p/cheap: 10 runs, won 5, 4 of 5 winning changes accepted (80%), $0.0010 per run',
				'p/dear: 10 runs, won 5, 5 of 5 winning changes accepted (100%), $0.100 per run',
			],
		});
		// "mid" won only reverted changes: it never meets the rate.
		expect(suggestTeam(board, { size: 3 })).toEqual({
			none: expect.stringContaining('2 model(s) meet an acceptance rate of 60% and 3 are needed'),
		});
		expect(suggestTeam(board, { size: 1, targetAcceptanceRate: 0.9 })).toMatchObject({
			members: [expect.objectContaining({ label: 'p/dear' })],
		});
		expect(suggestTeam(leaderboard({ runs: [], skipped: [] }), { size: 2 })).toEqual({
			none: expect.stringContaining('no change of any run has been accepted'),
		});
		// Unranked rows are never suggested, however good.
		expect(suggestTeam(leaderboard({ runs, skipped: [] }, { minRuns: 11 }), { size: 1 })).toEqual({
			none: expect.stringContaining('0 ranked'),
		});
	});
});
