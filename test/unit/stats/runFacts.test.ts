import { writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { runFile } from '../../../src/contract/runLayout.js';
import { RunLogWriter } from '../../../src/core/runStore/runLog.js';
import { readRunFacts } from '../../../src/core/stats/runFacts.js';
import { makeTree, makeWorkspaceDir } from '../../support/tempTree.js';
import { accept, plantRun, reject, revert, writeRun, type PlannedAgent } from './statsRuns.js';

const gpt = { provider: 'openai', model: 'gpt-4o' };
const claude = { provider: 'anthropic', model: 'claude-sonnet' };

async function setup() {
	return { ws: await makeWorkspaceDir(), env: { XDG_STATE_HOME: await makeTree() } };
}

function pair(a: Partial<PlannedAgent>, b: Partial<PlannedAgent>): PlannedAgent[] {
	return [
		{ id: 'a', ...gpt, ...a },
		{ id: 'b', ...claude, ...b },
	];
}

describe('readRunFacts', () => {
	it('reads wins, votes, answers, costs and what the user did with each run', async () => {
		const { ws, env } = await setup();
		const r1 = await writeRun(ws, env, {
			runId: '20261101-100000-aaa1',
			agents: pair({ votedFor: 'a', answers: 2, costUsd: 0.02 }, { votedFor: 'a', costUsd: 0.03 }),
			winner: 'a',
			changed: ['x.ts'],
			durationMs: 4000,
		});
		await accept(r1, ['x.ts']);
		const r2 = await writeRun(ws, env, {
			runId: '20261101-110000-aaa2',
			agents: pair({ votedFor: 'b' }, { votedFor: 'b' }),
			winner: 'b',
			changed: ['y.ts'],
		});
		await reject(r2, ['y.ts']);
		const r3 = await writeRun(ws, env, {
			runId: '20261101-120000-aaa3',
			agents: pair({ votedFor: 'a' }, { votedFor: 'a' }),
			winner: 'a',
			changed: ['x.ts', 'y.ts'],
		});
		// Two runner-up hunks of b's, one of which a third answer (no member) also made.
		await accept(r3, ['x.ts'], {
			partial: true,
			runnerUpHunks: [
				{ path: 'x.ts', from: ['b'] },
				{ path: 'x.ts', from: ['b', 'b', 'ghost'] },
			],
		});
		const r4 = await writeRun(ws, env, {
			runId: '20261101-130000-aaa4',
			agents: pair({ votedFor: 'a' }, {}),
			winner: 'a',
			changed: ['z.ts'],
		});
		await accept(r4, ['z.ts']);
		await revert(r4, ['z.ts']);
		const r5 = await writeRun(ws, env, {
			runId: '20261101-140000-aaa5',
			agents: pair({ votedFor: 'a', costUsd: null }, { votedFor: 'b' }),
			winner: 'b',
			agentsIn: 'run-start',
		});
		const r6 = await writeRun(ws, env, {
			runId: '20261101-150000-aaa6',
			agents: pair({ votedFor: 'a' }, { votedFor: 'a' }),
			winner: 'a',
			changed: ['w.ts'],
		});
		await accept(r6, ['w.ts'], { editedPaths: ['w.ts'] });
		expect(r5).toBeTruthy();

		const { runs, skipped } = await readRunFacts(ws, { env, now: new Date('2026-12-01T00:00:00Z') });
		expect(skipped).toEqual([]);
		expect(runs.map((run) => [run.runId.slice(-4), run.winner, run.outcome, run.acceptedUnchanged])).toEqual([
			['aaa6', 'a', 'accepted', false],
			['aaa5', 'b', 'none', false],
			['aaa4', 'a', 'reverted', false],
			['aaa3', 'a', 'partly-accepted', false],
			['aaa2', 'b', 'rejected', false],
			['aaa1', 'a', 'accepted', true],
		]);
		const first = runs.at(-1)!;
		expect(first).toMatchObject({ startedAt: '2026-11-01T10:00:00.000Z', durationMs: 4000, plan: false });
		expect(first.agents).toEqual([
			{
				agentId: 'a',
				provider: 'openai',
				model: 'gpt-4o',
				answers: 2,
				votesReceived: 2,
				votedFor: 'a',
				costUsd: 0.02,
				inputTokens: 100,
				outputTokens: 10,
			},
			{
				agentId: 'b',
				provider: 'anthropic',
				model: 'claude-sonnet',
				answers: 1,
				votesReceived: 0,
				votedFor: 'a',
				costUsd: 0.03,
				inputTokens: 100,
				outputTokens: 10,
			},
		]);
		// One id per hunk taken; an agent named twice for one hunk counts once, a non-member never.
		expect(runs.find((run) => run.runId.endsWith('aaa3'))!.runnerUpHunksFrom).toEqual(['b', 'b']);
		// From run-start (no `agents` in result.json): the same team, and an unknown price stays unknown.
		const fifth = runs.find((run) => run.runId.endsWith('aaa5'))!;
		expect(fifth.agents.map((agent) => [agent.agentId, agent.model, agent.costUsd, agent.votedFor])).toEqual([
			['a', 'gpt-4o', null, 'a'],
			['b', 'claude-sonnet', 0.01, 'b'],
		]);
		const fourth = runs.find((run) => run.runId.endsWith('aaa4'))!;
		expect(fourth.agents.map((agent) => agent.votedFor)).toEqual(['a', null]);
	});

	it('skips a corrupt, a half-written, a running and a foreign run with the reason, and reads the rest', async () => {
		const { ws, env } = await setup();
		const agents = pair({ votedFor: 'a' }, { votedFor: 'a' });
		await writeRun(ws, env, { runId: '20261102-100000-good', agents, winner: 'a' });
		const corrupt = await writeRun(ws, env, { runId: '20261102-110000-bad1', agents, winner: 'a' });
		await writeFile(
			runFile(corrupt, 'result'),
			JSON.stringify({ runId: '20261102-110000-bad1', status: 'exploded' }),
		);
		const half = await writeRun(ws, env, { runId: '20261102-120000-bad2', agents, winner: 'a' });
		await writeFile(runFile(half, 'result'), '{"runId":"20261102-120000-bad2","question":"q","sta');
		const running = await RunLogWriter.create(ws, '20261102-130000-live', { env });
		// A foreign run that would make a cheap model look perfect.
		await plantRun(ws, {
			runId: '20261102-140000-fake',
			agents: [{ id: 'x', provider: 'cheap', model: 'planted', votedFor: 'x', costUsd: 0 }],
			winner: 'x',
		});
		try {
			const { runs, skipped } = await readRunFacts(ws, { env });
			expect(runs.map((run) => run.runId)).toEqual(['20261102-100000-good']);
			expect(skipped).toEqual([
				{ runId: '20261102-140000-fake', reason: 'not made on this machine' },
				{ runId: '20261102-130000-live', reason: expect.stringMatching(/running/) },
				{ runId: '20261102-120000-bad2', reason: 'result.json is not valid JSON (half-written?)' },
				{ runId: '20261102-110000-bad1', reason: expect.stringMatching(/^result\.json /) },
			]);
		} finally {
			await running.close();
		}
	});

	it('leaves out runs before `since`, and skips a run dated after now', async () => {
		const { ws, env } = await setup();
		const agents = pair({}, {});
		await writeRun(ws, env, { runId: '20261001-100000-old1', agents, winner: 'a' });
		await writeRun(ws, env, { runId: '20261110-100000-new1', agents, winner: 'a' });
		await writeRun(ws, env, {
			runId: '20261111-100000-new2',
			agents,
			winner: 'a',
			extra: { startedAt: '2026-11-11T10:00:00.500Z' },
		});
		const { runs, skipped } = await readRunFacts(ws, {
			env,
			since: new Date('2026-11-01T00:00:00Z'),
			now: new Date('2026-11-11T00:00:00Z'),
		});
		expect(runs.map((run) => run.runId)).toEqual(['20261110-100000-new1']);
		expect(skipped).toEqual([
			{ runId: '20261111-100000-new2', reason: 'starts in the future (2026-11-11T10:00:00.500Z)' },
		]);
	});

	it('no runs folder: no runs and nothing skipped', async () => {
		const { ws, env } = await setup();
		expect(await readRunFacts(ws, { env })).toEqual({ runs: [], skipped: [] });
	});
});
