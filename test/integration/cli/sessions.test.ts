import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunLogWriter } from '../../../src/core/runStore/runLog.js';
import { makeWorkspaceDir } from '../../fakes/team.js';
import { startLoopbackTeam, type LoopbackTeam } from '../../servers/loopbackTeam.js';
import { repo, runCli } from './cliProcess.js';

const demo = join(repo, 'configs', 'demo.yaml');

interface StoredResult {
	runId: string;
	finalAnswer: string;
	session: { id: string; parentRunId: string | null };
}

/** The results of the workspace's runs, in the order they were made (`known`: ids seen before). */
function results(root: string, known: string[]): StoredResult[] {
	const runs = join(root, '.massgen', 'runs');
	for (const name of readdirSync(runs)) if (!known.includes(name)) known.push(name);
	return known.map(
		(name) => JSON.parse(readFileSync(join(runs, name, 'result.json'), 'utf8')) as StoredResult,
	);
}

describe('sessions on the command line (dist/cli.js): run --continue, runs, show', () => {
	let team: LoopbackTeam;
	beforeAll(async () => {
		team = await startLoopbackTeam();
	});
	afterAll(() => team.close());

	it("--continue gives every agent's first request of the next run the first turn's question and answer", async () => {
		const root = makeWorkspaceDir({ 'a.ts': 'export const a = 1;\n' });
		const config = join(root, 'team.yaml');
		writeFileSync(config, team.configYaml());
		const first = await runCli(['run', '--config', config, 'What does a.ts export?'], { cwd: root });
		expect(first.code).toBe(0);
		const known: string[] = [];
		const [turn1] = results(root, known);
		const seen = Object.fromEntries(
			Object.entries(team.servers).map(([name, s]) => [name, s.requests.length]),
		);

		const second = await runCli(['run', '--config', config, '--continue', 'And why is that?'], { cwd: root });
		expect(second.code).toBe(0);
		expect(second.stderr).toContain(
			`massgen: continuing session ${turn1!.runId} after run ${turn1!.runId} (1 earlier turn(s))`,
		);
		// JSON-escaped as the SDKs send them.
		const escaped = (text: string) => JSON.stringify(text).slice(1, -1);
		for (const [name, server] of Object.entries(team.servers)) {
			const request = server.requests[seen[name]!]!;
			expect(request.rawBody, name).toContain(
				escaped('<CONVERSATION_HISTORY>\nUser: What does a.ts export?'),
			);
			expect(request.rawBody, name).toContain(escaped(`Assistant: ${turn1!.finalAnswer}`));
			expect(request.rawBody, name).toContain('And why is that?');
		}
		const [, turn2] = results(root, known);
		expect(turn2!.session).toEqual({ id: turn1!.runId, parentRunId: turn1!.runId });

		// A session is named by its first run, so that id names the session: it continues after turn 2.
		const third = await runCli(['run', '--config', config, '--continue', turn1!.runId, 'Or else?'], {
			cwd: root,
		});
		expect(third.stderr).toContain(
			`massgen: continuing session ${turn1!.runId} after run ${turn2!.runId} (2 earlier turn(s))`,
		);
		results(root, known);
		// Turn 2 is no longer the last of its line: continuing it forks, a new session.
		const fork = await runCli(['run', '--config', config, `--continue=${turn2!.runId}`, 'Fork?'], {
			cwd: root,
		});
		expect(fork.code).toBe(0);
		expect(fork.stderr).toContain(
			`massgen: forking from run ${turn2!.runId} (2 earlier turn(s)): a new session`,
		);
		const all = results(root, known);
		expect(all).toHaveLength(4);
		const newest = all.at(-1)!;
		expect(newest.session).toEqual({ id: newest.runId, parentRunId: turn2!.runId });

		// The fork's conversation: turn 1, turn 2, then the fork (not turn 3, which is another line).
		const exported = await runCli(['show', newest.runId, '--session', '--markdown'], { cwd: root });
		expect(exported.code).toBe(0);
		const titles = exported.stdout.match(/^#{1,2} .*$/gm);
		expect(titles).toEqual([
			'# MassGen session (3 turn(s))',
			`## Turn 1: MassGen run \`${turn1!.runId}\``,
			`## Turn 2: MassGen run \`${turn2!.runId}\``,
			`## Turn 3: MassGen run \`${newest.runId}\``,
		]);
		expect(exported.stdout).toContain('> Fork?');

		const listed = await runCli(['runs', '--json'], { cwd: root });
		expect(listed.code).toBe(0);
		const { runs } = JSON.parse(listed.stdout) as { runs: { runId: string; sessionId: string }[] };
		expect(runs.map((r) => r.runId)).toEqual(all.map((r) => r.runId).reverse());
		expect(runs.filter((r) => r.sessionId === turn1!.runId)).toHaveLength(3);
		// The table marks a follow-up ↳ and a fork's first turn ⑂.
		const table = (await runCli(['runs'], { cwd: root })).stdout;
		const row = (runId: string) => table.split('\n').find((line) => line.startsWith(runId));
		expect(row(turn1!.runId)).toMatch(/ What does a\.ts export\?$/);
		expect(row(turn2!.runId)).toMatch(/ ↳ And why is that\?$/);
		expect(row(newest.runId)).toMatch(/ ⑂ Fork\?$/);
	});

	it('refuses an unknown id and a workspace without runs before any model request', async () => {
		const root = makeWorkspaceDir();
		const none = await runCli(['run', '--config', demo, '--continue', 'q'], { cwd: root });
		expect(none.code).toBe(1);
		expect(none.stderr).toContain('massgen: there is no earlier run to continue in this workspace');
		const unknown = await runCli(['run', '--config', demo, '--continue=nope', 'q'], { cwd: root });
		expect(unknown.code).toBe(1);
		expect(unknown.stderr).toContain("no run or session 'nope' to continue (massgen runs lists them)");
		expect(readdirSync(root)).not.toContain('.massgen');
	});

	it('runs lists id, time, status, winner, cost, changes and question; show prints one run as text and Markdown', async () => {
		const root = makeWorkspaceDir({ 'README.md': '# demo\n' });
		const run = await runCli(['run', '--config', demo, '--apply', 'How should we document this project?'], {
			cwd: root,
		});
		expect(run.code).toBe(0);
		const [result] = results(root, []);
		const id = result!.runId;

		const listed = await runCli(['runs'], { cwd: root });
		expect(listed.code).toBe(0);
		const [head, row] = listed.stdout.trim().split('\n');
		expect(head).toMatch(/^RUN\s+STARTED\s+STATUS\s+WINNER\s+COST\s+CHANGES\s+QUESTION$/);
		expect(row).toMatch(
			new RegExp(
				`^${id}\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC\\s+completed\\s+\\w+\\s+no price\\s+accepted\\s+How should we document this project\\?$`,
			),
		);

		const text = await runCli(['show', id], { cwd: root });
		expect(text.code).toBe(0);
		expect(text.stdout).toContain(`run       ${id}`);
		expect(text.stdout).toContain('── question ──\nHow should we document this project?');
		expect(text.stdout).toMatch(/── votes ──\n\w+ → \w+ \(agent\d\.1\): /);
		expect(text.stdout).toContain('+++ b/CONTRIBUTING.md');

		const markdown = await runCli(['show', id, '--markdown'], { cwd: root });
		expect(markdown.code).toBe(0);
		const md = markdown.stdout;
		expect(md.startsWith(`# MassGen run \`${id}\`\n\n> How should we document this project?\n`)).toBe(true);
		expect(md).toContain('\n- **Changes:** 1 file(s), accepted\n');
		for (const heading of [
			'## Final answer',
			'## Votes',
			'## Answers from the team',
			'## Changes',
			'## Usage',
		]) {
			expect(md).toContain(`\n${heading}\n`);
		}
		expect(md).toMatch(/\n```diff\n[\s\S]*\+\+\+ b\/CONTRIBUTING\.md[\s\S]*\n```\n/);
		expect(md).toContain(result!.finalAnswer.trim());

		const missing = await runCli(['show', '20990101-000000-zzzz'], { cwd: root });
		expect(missing.code).toBe(1);
		expect(missing.stderr).toContain('no result.json');
		const wrong = await runCli(['runs', '--apply'], { cwd: root });
		expect(wrong.code).toBe(1);
		expect(wrong.stderr).toContain('--apply is not an option of runs');
	});

	it("runs and show mask the environment's secrets even in a run directory written before they were known", async () => {
		const root = makeWorkspaceDir();
		const runId = '20250101-090000-aaaa';
		const token = 'ghp_0123456789abcdefTOKEN';
		const log = await RunLogWriter.create(root, runId);
		await log.finish({
			result: {
				runId,
				question: `Why does ${token} fail?`,
				status: 'completed',
				winner: null,
				answers: [],
				votes: [],
				finalAnswer: `Because ${token} expired.`,
				changes: [],
				usage: [],
				durationMs: 1,
			},
			configYaml: '',
			patch: '',
		});
		await log.close();
		const env = { GITHUB_TOKEN: token };
		for (const args of [['runs'], ['runs', '--json'], ['show', runId], ['show', runId, '--markdown']]) {
			const out = await runCli(args, { cwd: root, env });
			expect(out.code, args.join(' ')).toBe(0);
			expect(out.stdout + out.stderr, args.join(' ')).not.toContain(token);
			expect(out.stdout, args.join(' ')).toContain('[redacted]');
		}
	});
});
