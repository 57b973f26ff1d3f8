/**
 * The stats read a folder a repository can fill and a model's names can reach: they must stay
 * bounded and honest. Planted runs never count; odd names are shown inert; impossible figures are
 * unknown, never a rank.
 */
import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { leaderboard } from '../../../src/core/stats/leaderboard.js';
import { readRunFacts, statsLimits } from '../../../src/core/stats/runFacts.js';
import { statsReport } from '../../../src/core/stats/statsReport.js';
import { suggestTeam } from '../../../src/core/stats/suggestTeam.js';
import { makeTree, makeWorkspaceDir } from '../../support/tempTree.js';
import { accept, plantRun, writeRun } from './statsRuns.js';

async function setup() {
	return { ws: makeWorkspaceDir(), env: { XDG_STATE_HOME: await makeTree() } };
}

describe('stats over hostile run folders', () => {
	it('a cloned repository cannot rank a model: hundreds of planted runs are skipped unread, the list of them bounded', async () => {
		const { ws, env } = await setup();
		const mine = await writeRun(ws, env, {
			runId: '20261101-100000-mine',
			agents: [{ id: 'a', provider: 'openai', model: 'gpt-4o', votedFor: 'a' }],
			winner: 'a',
			changed: ['x.ts'],
		});
		await accept(mine, ['x.ts']);
		for (let i = 0; i < 250; i++) {
			await plantRun(ws, {
				runId: `20261102-10${String(Math.floor(i / 60)).padStart(2, '0')}${String(i % 60).padStart(2, '0')}-fake`,
				agents: [{ id: 'x', provider: 'evil', model: 'planted', votedFor: 'x', costUsd: 0 }],
				winner: 'x',
			});
		}
		const facts = await readRunFacts(ws, { env });
		expect(facts.runs.map((run) => run.runId)).toEqual(['20261101-100000-mine']);
		expect(facts.skipped).toHaveLength(statsLimits.skippedListed);
		expect(facts.skipped.slice(0, -1).every((skip) => skip.reason === 'not made on this machine')).toBe(true);
		expect(facts.skipped.at(-1)).toEqual({ runId: '…', reason: '51 more runs skipped' });
		const board = leaderboard(facts, { minRuns: 1 });
		expect(board.models.map((row) => row.label)).toEqual(['openai/gpt-4o']);
		expect(suggestTeam(board, { size: 1 })).toMatchObject({ members: [{ label: 'openai/gpt-4o' }] });
	});

	it('a .massgen that is a link is not followed: nothing read, the reason given', async () => {
		const { ws, env } = await setup();
		const elsewhere = makeWorkspaceDir();
		await writeRun(elsewhere, env, {
			runId: '20261101-100000-away',
			agents: [{ id: 'a', provider: 'p', model: 'm' }],
			winner: 'a',
		});
		await symlink(join(elsewhere, '.massgen'), join(ws, '.massgen'));
		const facts = await readRunFacts(ws, { env });
		expect(facts.runs).toEqual([]);
		expect(facts.skipped).toEqual([{ runId: '.massgen/runs', reason: expect.stringMatching(/link/i) }]);
	});

	it('names with terminal escapes, Markdown and __proto__, and impossible costs stay inert and unknown', async () => {
		const { ws, env } = await setup();
		const ansi = '\u001b[2J\u001b[31mgpt\u001b[0m\u202eevil';
		const markdown = '[click](https://evil.example) | **x** | `y` $1$';
		const dir = await writeRun(ws, env, {
			runId: '20261101-100000-odd1',
			agents: [
				{ id: '__proto__', provider: 'openai', model: ansi, votedFor: '__proto__' },
				{ id: 'constructor', provider: 'x'.repeat(5000), model: markdown, votedFor: '__proto__' },
				{ id: 'c', provider: 'p', model: 'm', votedFor: 'ghost' },
			],
			winner: '__proto__',
			changed: ['x.ts'],
			durationMs: -5,
			extra: {
				usage: [
					{ agentId: '__proto__', inputTokens: -1, outputTokens: 1e300, calls: 1, costUsd: -5 },
					{ agentId: 'constructor', inputTokens: 'many', outputTokens: 3, calls: 1, costUsd: 1e300 },
					{ agentId: 'c', inputTokens: 1, outputTokens: 2, calls: 1, costUsd: Number.NaN },
				],
			},
		});
		// A cost that is not a number at all: the result is malformed, the run skipped with why.
		await writeRun(ws, env, {
			runId: '20261101-090000-odd0',
			agents: [{ id: 'a', provider: 'p', model: 'm' }],
			winner: 'a',
			extra: { usage: [{ agentId: 'a', inputTokens: 1, outputTokens: 1, calls: 1, costUsd: 'NaN' }] },
		});
		await accept(dir, ['x.ts'], { runnerUpHunks: [{ path: 'x.ts', from: ['constructor', 'nobody'] }] });
		const facts = await readRunFacts(ws, { env });
		expect(facts.skipped).toEqual([
			{
				runId: '20261101-090000-odd0',
				reason: expect.stringMatching(/^result\.json has a bad usage entry \(usage\.0\.costUsd/),
			},
		]);
		expect(facts.runs).toHaveLength(1);
		const run = facts.runs[0]!;
		expect(run.durationMs).toBe(0);
		expect(run.winner).toBe('__proto__');
		expect(run.runnerUpHunksFrom).toEqual(['constructor']);
		expect(
			run.agents.map((agent) => [agent.agentId, agent.costUsd, agent.inputTokens, agent.outputTokens]),
		).toEqual([
			['__proto__', null, 0, 0],
			['constructor', null, 0, 3],
			['c', null, 1, 2],
		]);
		// A vote for no member of the run is not counted.
		expect(run.agents.map((agent) => [agent.votedFor, agent.votesReceived])).toEqual([
			['__proto__', 2],
			['__proto__', 0],
			[null, 0],
		]);
		const [first, second] = run.agents;
		expect(first!.model).toBe('?[2J?[31mgpt?[0m?evil');
		expect(second!.provider).toHaveLength(80);
		expect(({} as Record<string, unknown>)['agentId']).toBeUndefined();

		const board = leaderboard(facts, { minRuns: 1 });
		expect(board.agents.find((row) => row.label.startsWith('__proto__'))).toMatchObject({
			wins: 1,
			votesReceived: 2,
		});
		// Every cost is unknown: no cost per run, and no suggestion built on one.
		expect(board.models.every((row) => row.costPerRunUsd === null)).toBe(true);
		expect(suggestTeam(board, { size: 1 })).toEqual({ none: expect.stringContaining('0 with a known cost') });

		const text = statsReport(board, 'text');
		expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u202e]/);
		expect(text).toContain('?[2J?[31mgpt?[0m?evil');
		const md = statsReport(board, 'markdown');
		expect(md).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u202e]/);
		expect(md).not.toContain('[click](');
		expect(md).toContain('\\[click\\]\\(https\\://evil\\.example\\) \\| \\*\\*x\\*\\* \\| \\`y\\` \\$1\\$');
		// Each table line has its columns' cells only: a `|` in a name is no new cell.
		const modelLines = md.split('## Models')[1]!.split('##')[0]!.trim().split('\n');
		const cells = (line: string) => line.split(/(?<!\\)\|/).length;
		expect(new Set(modelLines.map(cells)).size).toBe(1);
	});

	it('Suggest a Team never proposes a name cut or masked for display, or unknown: it would write another model', async () => {
		const { ws, env } = await setup();
		const agents = [
			{ id: 'masked', provider: 'openai', model: 'gpt\u200b4o', costUsd: 0.001 },
			{ id: 'cut', provider: 'openai', model: `gpt-${'x'.repeat(200)}`, costUsd: 0.001 },
			{ id: 'nameless', provider: 'openai', model: '', costUsd: 0.001 },
			{ id: 'good', provider: 'openai', model: 'gpt-4o-mini', costUsd: 0.01 },
		];
		for (const [i, winner] of agents.entries()) {
			const dir = await writeRun(ws, env, {
				runId: `20261101-10000${i}-sgst`,
				agents,
				winner: winner.id,
				changed: ['x.ts'],
			});
			await accept(dir, ['x.ts']);
		}
		const board = leaderboard(await readRunFacts(ws, { env }), { minRuns: 1 });
		expect(board.models.map((row) => row.label)).toEqual(
			expect.arrayContaining(['openai/gpt?4o', 'openai/unknown', expect.stringMatching(/^openai\/gpt-x+…$/)]),
		);
		// The three cheaper rows are not names a config can be written with: the dearer real one is chosen.
		expect(suggestTeam(board, { size: 1 })).toMatchObject({
			members: [expect.objectContaining({ label: 'openai/gpt-4o-mini' })],
		});
		expect(suggestTeam(board, { size: 2 })).toEqual({
			none: expect.stringContaining('3 of them without a usable model name'),
		});
	});

	it('a planted agents list of thousands is cut to the cap', async () => {
		const { ws, env } = await setup();
		const agents = Array.from({ length: 500 }, (_, i) => ({ id: `a${i}`, provider: 'p', model: `m${i}` }));
		await writeRun(ws, env, { runId: '20261101-100000-many', agents, winner: 'a0' });
		const facts = await readRunFacts(ws, { env });
		expect(facts.runs[0]!.agents).toHaveLength(statsLimits.agents);
	});
});
