import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeWorkspaceDir } from '../../fakes/team.js';
import { cliPath, fixture, repo, runCli } from './cliProcess.js';
import { runDirs } from '../../support/runDir.js';

const demo = join(repo, 'configs', 'demo.yaml');

function readRunDir(dir: string): string {
	return readdirSync(dir)
		.map((name) => readFileSync(join(dir, name), 'utf8'))
		.join('\n');
}

describe('massgen CLI (dist/cli.js)', () => {
	it('is built', () => expect(existsSync(cliPath)).toBe(true));

	it('runs a scripted three-agent team end to end: votes, winner, final answer, patch', async () => {
		const root = makeWorkspaceDir({ 'README.md': '# demo\n' });
		const run = await runCli(['run', '--config', demo, 'How should we document this project?'], {
			cwd: root,
		});
		expect(run.code).toBe(0);
		expect(run.stdout).toMatch(/Added \*\*CONTRIBUTING\.md\*\*/);
		expect(run.stderr).toMatch(/votes agent\d\.1/);
		expect(run.stderr).toMatch(/winner: \w+ with agent\d\.1 \(3 votes\)/);
		expect(run.stderr).toContain('run log: ');
		const [dir] = runDirs(root);
		const result = JSON.parse(readFileSync(join(dir!, 'result.json'), 'utf8'));
		expect(result).toMatchObject({ status: 'completed', question: 'How should we document this project?' });
		expect(result.votes).toHaveLength(3);
		expect(result.changes).toEqual([expect.objectContaining({ path: 'CONTRIBUTING.md', kind: 'add' })]);
		const events = readFileSync(join(dir!, 'events.jsonl'), 'utf8')
			.trim()
			.split('\n')
			.map((line) => JSON.parse(line));
		expect(events[0].type).toBe('run-start');
		expect(events.at(-1)).toMatchObject({ type: 'run-end', status: 'completed' });
		expect(readFileSync(join(dir!, 'final-answer.md'), 'utf8')).toContain('CONTRIBUTING.md');
		// The workspace is untouched, and the patch applies cleanly with git.
		expect(existsSync(join(root, 'CONTRIBUTING.md'))).toBe(false);
		execFileSync('git', ['init', '-q'], { cwd: root });
		execFileSync('git', ['apply', '--check', join(dir!, 'changes.patch')], { cwd: root });
	});

	it('--json prints RunEvents as NDJSON ending with run-end; --apply writes the change set', async () => {
		const root = makeWorkspaceDir();
		const run = await runCli(['run', '--json', '--apply', '--config', demo, 'Docs?'], { cwd: root });
		expect(run.code).toBe(0);
		const events = run.stdout
			.trim()
			.split('\n')
			.map((line) => JSON.parse(line));
		expect(events.at(-1)).toMatchObject({ type: 'run-end', status: 'completed' });
		expect(events.map((e) => e.seq)).toEqual(events.map((_: unknown, i: number) => i));
		expect(readFileSync(join(root, 'CONTRIBUTING.md'), 'utf8')).toContain('npm test');
		expect(run.stderr).toContain('applied 1 change(s): CONTRIBUTING.md');
	});

	it('validate prints file:line:col errors and exits 1; a good file exits 0', async () => {
		const bad = await runCli(['validate', fixture('broken.yaml')], { cwd: repo });
		expect(bad.code).toBe(1);
		expect(bad.stderr).toMatch(/broken\.yaml:6:20: error: .*temperature/);
		expect(bad.stderr).toMatch(/broken\.yaml:7:9: error: .*duplicate/i);
		expect(bad.stderr).not.toMatch(/\n\s+at /);
		const good = await runCli(['validate', demo], { cwd: repo });
		expect(good.code).toBe(0);
	});

	it('run refuses a missing API key before any call, naming the variable', async () => {
		const run = await runCli(['run', '--config', fixture('needs-key.yaml'), 'hi'], {
			cwd: makeWorkspaceDir(),
		});
		expect(run.code).toBe(1);
		expect(run.stderr).toMatch(/needs-key\.yaml:\d+:\d+: error: agent 'gpt': no API key: set OPENAI_API_KEY/);
	});

	it('with no key and no local model, the default team names the keyless demo, and the command it names works', async () => {
		const root = makeWorkspaceDir();
		const run = await runCli(['run', 'hi'], { cwd: root });
		expect(run.code).toBe(1);
		expect(run.stderr).toMatch(/no agent of the default team is available/);
		const hint = /massgen run --config (\S+demo\.yaml) "QUESTION"/.exec(run.stderr);
		expect(hint, run.stderr).not.toBeNull();
		const tried = await runCli(['run', '--config', hint![1]!, 'hi'], { cwd: root });
		expect(tried.code, tried.stderr).toBe(0);
	});

	it('usage errors exit 1 with a message, --version prints the version', async () => {
		const usage = await runCli(['run'], { cwd: repo });
		expect(usage.code).toBe(1);
		expect(usage.stderr).toContain('run needs a QUESTION');
		const version = await runCli(['--version'], { cwd: repo });
		expect(version.stdout.trim()).toBe(JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')).version);
	});

	it('a --config that does not exist: exit 1 naming it, no other team run, nothing written (run and trust)', async () => {
		const root = makeWorkspaceDir({ '.massgen/config.yaml': 'agents: []\n' });
		for (const command of ['run', 'trust']) {
			const args =
				command === 'run' ? ['run', '--config', 'nope.yaml', 'hi'] : ['trust', '--config', 'nope.yaml'];
			const refused = await runCli(args, { cwd: root });
			expect(refused.code).toBe(1);
			expect(refused.stderr).toContain(`cannot read the config ${join(root, 'nope.yaml')}: no such file`);
		}
		expect(existsSync(join(root, '.massgen', 'runs'))).toBe(false);
	});

	it('exits 2 when every agent fails, 3 on timeout', async () => {
		const failed = await runCli(['run', '--config', fixture('failing.yaml'), 'hi'], {
			cwd: makeWorkspaceDir(),
		});
		expect(failed.code).toBe(2);
		expect(failed.stderr).toContain('broken2: OPENAI_API_KEY rejected (401)');
		const root = makeWorkspaceDir();
		const timedOut = await runCli(['run', '--timeout', '0.3', '--config', fixture('slow.yaml'), 'hi'], {
			cwd: root,
		});
		expect(timedOut.code).toBe(3);
		expect(JSON.parse(readFileSync(join(runDirs(root)[0]!, 'result.json'), 'utf8')).status).toBe('timeout');
	});

	it('SIGINT cancels: exit 4, result.json says cancelled, partial log kept, nothing written', async () => {
		const root = makeWorkspaceDir({ 'a.txt': 'keep\n' });
		const run = await runCli(['run', '--apply', '--config', fixture('slow.yaml'), 'hi'], {
			cwd: root,
			onStderr: (text, child) => {
				if (text.includes('round 1') && !child.killed) child.kill('SIGINT');
			},
		});
		expect(run.code).toBe(4);
		const dir = runDirs(root)[0]!;
		expect(JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8')).status).toBe('cancelled');
		expect(readFileSync(join(dir, 'events.jsonl'), 'utf8')).toContain('"type":"run-start"');
		expect(readdirSync(root).sort()).toEqual(['.massgen', 'a.txt']);
		expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('keep\n');
	});

	it('never writes a secret to the run directory', async () => {
		const root = makeWorkspaceDir();
		const run = await runCli(['run', '--config', fixture('secret-key.yaml'), 'What is 2 + 2?'], {
			cwd: root,
			env: { ANTHROPIC_API_KEY: 'sk-ant-env-secret-777' },
		});
		expect(run.code).toBe(0);
		const written = readRunDir(runDirs(root)[0]!);
		expect(written).toContain('remote');
		expect(written).not.toContain('sk-inline-secret-4242');
		expect(written).not.toContain('sk-ant-env-secret-777');
		expect(run.stderr + run.stdout).not.toContain('sk-inline-secret-4242');
	});
});
