/**
 * `massgen stats` and the suggestion in `massgen init`, end to end through `dist/cli.js`: real
 * `massgen run`s on the loopback servers (each agent answers, then votes for the answer of the
 * run's lead model, as read from the prompt), `--apply` and `revert` deciding the changes, then the
 * figures checked against what the runs did.
 */
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { loadConfigText } from '../../../src/core/config/loadConfig.js';
import type { Leaderboard, StatsRow } from '../../../src/core/stats/leaderboard.js';
import { makeWorkspaceDir } from '../../fakes/team.js';
import { type LoopbackAgent, type LoopbackTeam, startLoopbackTeam } from '../../servers/loopbackTeam.js';
import type { PromptView, Reply } from '../../servers/types.js';
import { runCli } from './cliProcess.js';
import { startOnPty } from './ptyProcess.js';

interface StoredResult {
	runId: string;
	winner: { agentId: string } | null;
	votes: { voter: string; votedFor: string }[];
	answers: { agentId: string; label: string }[];
	usage: { agentId: string; costUsd: number | null }[];
	agents: { agentId: string; anonId: string; provider: string; model: string }[];
}

describe('massgen stats (dist/cli.js, loopback team)', () => {
	let team: LoopbackTeam;
	/** The model whose answer every vote goes to in the run at hand. */
	let lead = '';
	beforeAll(async () => {
		team = await startLoopbackTeam({
			// The presenter writes one file named by the task, so every run has a change set of its own.
			auto: {
				presentationWrites: (prompt) => {
					const task = /TASK-(\d+)/.exec(prompt.texts.join('\n'))?.[1] ?? 'x';
					return [{ path: `out/task-${task}.txt`, content: `done ${task}\n` }];
				},
			},
			script: ({ model, prompt }) => leadWins(model, prompt),
		});
	});
	afterAll(() => team.close());

	/**
	 * Votes go to the lead's answer (auto answers name their model: `Answer from the … agent (gpt-5-mini)`);
	 * the lead answers before it votes. Anything else is the auto agent's.
	 */
	function leadWins(model: string, prompt: PromptView): Reply | undefined {
		if (!prompt.tools.some((tool) => tool.name === 'vote')) return undefined;
		const shown = [prompt.system, ...prompt.texts].join('\n');
		const answers = [...shown.matchAll(/<answer id="(agent\d+)"[^>]*>([\s\S]*?)<\/answer>/g)];
		const leading = answers.find((match) => match[2]!.includes(`(${lead})`))?.[1];
		const usage = { input: 120, output: 30 };
		if (leading) {
			const args = { agent_id: leading, reason: `${leading} answers it fully.` };
			return { turn: { text: 'Voting.', toolCalls: [{ name: 'vote', arguments: args }], usage } };
		}
		if (model !== lead) return undefined;
		const content = `Answer from the lead agent (${lead}): done.`;
		return {
			turn: { text: 'Answering.', toolCalls: [{ name: 'new_answer', arguments: { content } }], usage },
		};
	}

	/** The loopback team with `first` leading (its answer gets the votes), the rest in their order. */
	function config(dir: string, first: string): string {
		const agents: LoopbackAgent[] = [
			...team.agents.filter((agent) => agent.id === first),
			...team.agents.filter((agent) => agent.id !== first),
		];
		const file = join(dir, `${first}.yaml`);
		writeFileSync(file, stringify({ agents }));
		return file;
	}

	async function run(
		root: string,
		env: NodeJS.ProcessEnv,
		first: string,
		task: number,
		apply: boolean,
	): Promise<StoredResult> {
		lead = team.agents.find((agent) => agent.id === first)!.backend.model;
		const args = ['run', ...(apply ? ['--apply'] : []), '--config', config(root, first), `Do TASK-${task}`];
		const done = await runCli(args, { cwd: root, env, deadlineMs: 60_000 });
		expect(done.code, done.stderr).toBe(0);
		const runDir = /run log: (.+)/.exec(done.stderr)![1]!.trim();
		return JSON.parse(readFileSync(join(runDir, 'result.json'), 'utf8')) as StoredResult;
	}

	it('counts wins, votes, answers, accepts and reverts as the runs made them; a planted run is skipped', async () => {
		const root = makeWorkspaceDir({ 'a.ts': 'export const a = 1;\n' });
		const env = { XDG_STATE_HOME: makeWorkspaceDir() };
		const results = [
			await run(root, env, 'openai_agent', 1, true),
			await run(root, env, 'claude_agent', 2, false),
			await run(root, env, 'openai_agent', 3, true),
		];
		const reverted = await runCli(['revert', results[2]!.runId], { cwd: root, env });
		expect(reverted.code, reverted.stderr).toBe(0);
		// A run folder that came with the repository: a copy of a real one, never recorded here.
		cpSync(
			join(root, '.massgen', 'runs', results[0]!.runId),
			join(root, '.massgen', 'runs', '20991231-000000-fake'),
			{
				recursive: true,
			},
		);

		// result.json keeps the team as run-start has it (what the stats read).
		for (const result of results) {
			expect(result.agents.map((agent) => `${agent.provider}/${agent.model}`).sort()).toEqual([
				'chatcompletion/loopback-chat',
				'claude/claude-haiku-4-5',
				'gemini/gemini-2.5-flash',
				'openai/gpt-5-mini',
			]);
		}
		expect(results.map((result) => result.winner?.agentId)).toEqual([
			'openai_agent',
			'claude_agent',
			'openai_agent',
		]);

		const stats = await runCli(['stats', '--json', '--min-runs', '3'], { cwd: root, env });
		expect(stats.code, stats.stderr).toBe(0);
		const board = JSON.parse(stats.stdout) as Leaderboard;
		expect(board).toMatchObject({ since: null, minRuns: 3, runs: 3 });
		expect(board.skipped).toEqual([{ runId: '20991231-000000-fake', reason: 'not made on this machine' }]);
		// Decided: run 1 accepted (--apply), run 3 reverted; run 2 is still pending.
		expect(board.acceptanceRate).toBe(0.5);

		const modelOf = new Map(
			team.agents.map((agent) => [agent.id, `${agent.backend.type}/${agent.backend.model}`]),
		);
		const row = (id: string): StatsRow => board.models.find((r) => r.label === modelOf.get(id))!;
		// Every figure from the results the runs wrote: the votes the servers' answers cast, the answer labels, the costs.
		for (const agent of team.agents) {
			const votesFor = results.flatMap((r) => r.votes).filter((vote) => vote.votedFor === agent.id).length;
			const voted = results.flatMap((r) => r.votes.filter((vote) => vote.voter === agent.id));
			const agreed = results.filter((r) =>
				r.votes.some((vote) => vote.voter === agent.id && vote.votedFor === r.winner?.agentId),
			).length;
			const answers = results
				.flatMap((r) => r.answers)
				.filter((answer) => answer.agentId === agent.id)
				.reduce((sum, answer) => sum + Number(answer.label.split('.').at(-1)), 0);
			const costs = results.map((r) => r.usage.find((usage) => usage.agentId === agent.id)!.costUsd);
			const known = costs.filter((cost): cost is number => cost !== null);
			expect(row(agent.id), agent.id).toMatchObject({
				runs: 3,
				answers,
				votesReceived: votesFor,
				votedRuns: voted.length,
				agreedWithFinal: agreed,
				ranked: true,
			});
			if (known.length === 0) expect(row(agent.id).costPerRunUsd, agent.id).toBeNull();
			else {
				expect(row(agent.id).costPerRunUsd, agent.id).toBeCloseTo(
					known.reduce((a, b) => a + b, 0) / known.length,
					10,
				);
			}
		}
		// The servers' scripted votes: every agent backs the lead's answer (4 votes a run it led).
		expect(row('openai_agent').votesReceived).toBe(8);
		expect(row('claude_agent').votesReceived).toBe(4);
		expect(row('openai_agent')).toMatchObject({
			wins: 2,
			winsWithChanges: 2,
			acceptedUnchanged: 1,
			partlyAccepted: 0,
			rejected: 0,
			reverted: 1,
		});
		expect(row('claude_agent')).toMatchObject({
			wins: 1,
			winsWithChanges: 1,
			acceptedUnchanged: 0,
			reverted: 0,
		});
		expect(row('gemini_agent')).toMatchObject({ wins: 0, winsWithChanges: 0 });
		// The unpriced loopback model has no cost per run; the priced ones have one.
		expect(row('chat_agent').costPerRunUsd).toBeNull();
		expect(row('openai_agent').costPerRunUsd).toBeGreaterThan(0);
		// One team: another order in the config is the same team (its members sorted).
		expect(board.teams).toHaveLength(1);
		expect(board.teams[0]).toMatchObject({
			runs: 3,
			wins: 3,
			acceptedChanges: 1,
			costPerAcceptedChangeUsd: null,
		});

		// The table: the same figures, the openai model ranked first (one of two decided changes accepted).
		const table = await runCli(['stats', '--min-runs', '3'], { cwd: root, env });
		expect(table.code).toBe(0);
		expect(table.stdout).toContain('3 runs; you accepted 50% of the decided changes.');
		const line = table.stdout
			.split('\n')
			.find((text) => text.includes('openai/gpt-5-mini') && !text.includes('·'))!;
		expect(
			line
				.trim()
				.split(/\s{2,}/)
				.slice(0, 11),
		).toEqual([
			'1',
			'openai/gpt-5-mini',
			'3',
			String(row('openai_agent').answers),
			'2',
			String(row('openai_agent').votesReceived),
			`${row('openai_agent').agreedWithFinal}/${row('openai_agent').votedRuns}`,
			'1/2 (50%)',
			'1',
			'0',
			'1',
		]);
		expect(table.stdout).toContain('Skipped 1 run:\n  20991231-000000-fake: not made on this machine');

		// --since leaves every run out; bad flags exit 1 with the reason.
		const later = await runCli(['stats', '--json', '--since', '2099-01-01'], { cwd: root, env });
		expect(JSON.parse(later.stdout)).toMatchObject({
			runs: 0,
			since: '2099-01-01T00:00:00.000Z',
			models: [],
		});
		const bad = await runCli(['stats', '--since', 'lately'], { cwd: root, env });
		expect(bad.code).toBe(1);
		expect(bad.stderr).toContain(
			"--since is a number of days (30d), hours (12h) or a date (2026-11-01), not 'lately'",
		);
		const zero = await runCli(['stats', '--min-runs', '0'], { cwd: root, env });
		expect(zero.code).toBe(1);
		expect(zero.stderr).toContain("--min-runs must be a whole number of runs, 1 or more, not '0'");
		// Nothing was written by the stats.
		expect(readdirSync(join(root, '.massgen', 'runs')).sort()).toEqual(
			[...results.map((r) => r.runId), '20991231-000000-fake'].sort(),
		);
	});

	it('massgen init offers the suggested team first, with its evidence, and writes it on yes', async () => {
		const root = makeWorkspaceDir({ 'a.ts': 'export const a = 1;\n' });
		const env = { XDG_STATE_HOME: makeWorkspaceDir() };
		// Five runs (every model ranked at the default minimum), openai winning three, claude two, all applied.
		const leads = ['openai_agent', 'claude_agent', 'openai_agent', 'claude_agent', 'openai_agent'];
		for (const [i, lead] of leads.entries()) await run(root, env, lead, i + 1, true);

		const pty = startOnPty(['init'], { cwd: root, env });
		let at = await pty.waitFor('Use this team (', 0);
		const shown = pty.output();
		expect(shown).toContain('winning changes you accepted at least 100% of the time');
		expect(shown).toContain('openai/gpt-5-mini: 5 runs, won 3, 3 of 3 winning changes accepted (100%)');
		expect(shown).toContain('claude/claude-haiku-4-5: 5 runs, won 2, 2 of 2 winning changes accepted (100%)');
		pty.type('y\r');
		for (const id of ['Role of ', 'Role of ']) {
			at = await pty.waitFor(id, at);
			pty.type('\r');
		}
		for (const question of ['Voting sensitivity', 'Answers per agent', 'Coordination timeout', 'Quorum:']) {
			at = await pty.waitFor(question, at);
			pty.type('\r');
		}
		expect(await pty.exited).toBe(0);
		const file = join(root, '.massgen', 'config.yaml');
		const written = loadConfigText(readFileSync(file, 'utf8'), file).config!;
		expect(written.agents.map((agent) => `${agent.backend.type}:${agent.backend.model}`).sort()).toEqual([
			'claude:claude-haiku-4-5',
			'openai:gpt-5-mini',
		]);
	});
});
