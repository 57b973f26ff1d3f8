/**
 * Two `dist/cli.js run --apply` processes on one workspace, started together, with scripted teams
 * editing one file: edits four lines apart end merged (both exit 0); edits of one line end with one
 * team's whole version, the other exiting 2 with a conflict and writing nothing. Never a torn or
 * lost write. And the lock between them: a live holder is waited for, a killed one's lock is taken over.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { acquireWorkspaceLock, defaultLockDir } from '../../../src/core/workspace/workspaceLock.js';
import { makeWorkspaceDir } from '../../fakes/team.js';
import { runCli } from './cliProcess.js';

// 2,000 lines of 100 characters: a write long enough for two processes' applies to meet.
const baseLines = Array.from({ length: 2_000 }, (_, i) => `const v${i + 1} = '${'x'.repeat(80)}';\n`);
const base = baseLines.join('');
const withLine = (n: number, text: string, from = base) => {
	const lines = from.split(/(?<=\n)/);
	lines[n - 1] = `${text}\n`;
	return lines.join('');
};

/**
 * A two-agent scripted team (one agent would skip coordination, and with it the read) that reads src/app.js and edits one line of what it read (`edit_file`):
 * whichever way the two runs' reads and applies interleave, its edit is one of that line only.
 */
function team(name: string, line: number, text: string): string {
	const dir = mkdtempSync(join(tmpdir(), 'massgen-cfg-'));
	const file = join(dir, `${name}.yaml`);
	const edit = { path: 'src/app.js', old_text: baseLines[line - 1], new_text: `${text}\n` };
	const agent = (id: string) => ({
		id,
		backend: {
			type: 'scripted',
			script: {
				// The read comes a few model calls (100 ms each) before the apply: the two runs' reads usually both
				// precede either apply, so the lock, not the order, is what the race tests.
				latency_ms: 100,
				coordination: [
					{
						tool_calls: [
							{ name: 'read_file', arguments: { path: 'src/app.js' } },
							{ name: 'edit_file', arguments: edit },
						],
						answer: `${id}'s edit`,
					},
					{ vote: 'first', reason: 'fine' },
				],
				presentation: { text: 'done' },
			},
		},
	});
	writeFileSync(file, stringify({ agents: [agent(`${name}-1`), agent(`${name}-2`)] }));
	return file;
}

function apply(root: string, config: string, env: NodeJS.ProcessEnv, onStderr?: (text: string) => void) {
	return runCli(['run', '--apply', '--config', config, 'Edit src/app.js'], {
		cwd: root,
		env,
		deadlineMs: 30_000,
		...(onStderr ? { onStderr } : {}),
	});
}

function setup() {
	const root = makeWorkspaceDir({ 'src/app.js': base });
	const state = mkdtempSync(join(tmpdir(), 'massgen-state-'));
	return { root, env: { XDG_STATE_HOME: state }, lockDir: defaultLockDir({ XDG_STATE_HOME: state }) };
}

const lineA = "const v3 = 'team A';";
const lineB7 = "const v7 = 'team B';";
const lineB3 = "const v3 = 'team B, longer than team A';";
const applied = (run: { stderr: string }) => run.stderr.includes('applied 1 change(s): src/app.js');

describe('two massgen run --apply at once on one workspace', () => {
	it('line 3 and line 7: both exit 0 and the file holds both edits, two rounds', async () => {
		for (let round = 0; round < 2; round++) {
			const { root, env } = setup();
			const runs = await Promise.all([
				apply(root, team('alpha', 3, lineA), env),
				apply(root, team('beta', 7, lineB7), env),
			]);
			expect(runs.map((run) => run.code)).toEqual([0, 0]);
			expect(runs.every(applied)).toBe(true);
			expect(readFileSync(join(root, 'src/app.js'), 'utf8')).toBe(withLine(7, lineB7, withLine(3, lineA)));
		}
	}, 60_000);

	it('both on line 3: one whole version lands, the other writes nothing and says why, two rounds', async () => {
		for (let round = 0; round < 2; round++) {
			const { root, env } = setup();
			const runs = await Promise.all([
				apply(root, team('alpha', 3, lineA), env),
				apply(root, team('beta', 3, lineB3), env),
			]);
			const final = readFileSync(join(root, 'src/app.js'), 'utf8');
			const versions = [withLine(3, lineA), withLine(3, lineB3)];
			const winner = versions.indexOf(final);
			expect(winner).toBeGreaterThanOrEqual(0);
			expect(runs[winner]!.code).toBe(0);
			expect(applied(runs[winner]!)).toBe(true);
			const loser = runs[1 - winner]!;
			expect(applied(loser)).toBe(false);
			// Both read the original: a clean conflict, exit 2. (The rare other order: the loser's team read the
			// winner's line 3, so its edit found no original line and it proposed nothing.)
			if (loser.code !== 0) {
				expect(loser.code).toBe(2);
				expect(loser.stderr).toContain('not applied: src/app.js: you changed it since the team read it');
				expect(loser.stderr).toContain('nothing was written');
			}
		}
	}, 60_000);

	it('waits for a live holder of the lock, and takes over the lock of a killed one', async () => {
		const { root, env, lockDir } = setup();
		// A live holder (this test process): the CLI says it waits; released on that signal, it applies.
		const held = await acquireWorkspaceLock(root, { tool: 'the test', dir: lockDir });
		let released = false;
		const waited = await apply(root, team('alpha', 3, lineA), env, (text) => {
			if (!released && text.includes('waiting for another write to this workspace to finish (the test')) {
				released = true;
				void held.release();
			}
		});
		expect(released).toBe(true);
		expect(waited.code).toBe(0);
		expect(readFileSync(join(root, 'src/app.js'), 'utf8')).toBe(withLine(3, lineA));

		// A holder killed while holding it: its lock is taken over at once, without waiting.
		const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
		await once(child, 'spawn');
		const dead = await acquireWorkspaceLock(root, { tool: 'killed', dir: lockDir, pid: child.pid! });
		child.kill('SIGKILL');
		await once(child, 'exit');
		const run = await apply(root, team('beta', 7, lineB7), env);
		expect(run.stderr).not.toContain('waiting for another write');
		expect(run.code).toBe(0);
		expect(readFileSync(join(root, 'src/app.js'), 'utf8')).toBe(withLine(7, lineB7, withLine(3, lineA)));
		expect(() => statSync(dead.file)).toThrow();
	}, 60_000);
});
