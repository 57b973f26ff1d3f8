/**
 * `npx massgen` and npm scripts put `<workspace>/node_modules/.bin` first on PATH. The host tools a
 * run starts (bwrap, unshare, mount, tar, rg, git) must not come from there: a repository's own
 * `bwrap` would run on the host and replace the sandbox. Through the built CLI: stand-ins that log
 * and then run the real tool sit first on PATH, inside the workspace (never run) and, as the
 * control, in a folder outside it (run: the rig would see it).
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { detectSandbox } from '../../../src/core/exec/sandbox/detectSandbox.js';
import { cliPath, runCli } from './cliProcess.js';

const made: string[] = [];
afterAll(() => {
	for (const dir of made) rmSync(dir, { recursive: true, force: true });
});
const folder = (prefix: string) => {
	const dir = mkdtempSync(join(tmpdir(), prefix));
	made.push(dir);
	return dir;
};

const tools = ['bwrap', 'unshare', 'mount', 'tar', 'rg', 'git'];
const real = (name: string) => execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim();

/** Stand-ins in `bins` that append their name to `log`, then run the real tool. */
function standIns(bins: string, log: string): void {
	mkdirSync(bins, { recursive: true });
	for (const name of tools) {
		const file = join(bins, name);
		writeFileSync(file, `#!/bin/sh\necho ${name} >> '${log}'\nexec '${real(name)}' "$@"\n`);
		chmodSync(file, 0o755);
	}
}

function workspace(): string {
	const root = folder('massgen-hosttools-ws-');
	mkdirSync(join(root, 'src'));
	writeFileSync(join(root, 'src', 'app.ts'), 'export const app = 1;\n');
	const git = (...args: string[]) =>
		execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
			cwd: root,
			stdio: 'ignore',
		});
	git('init', '-q');
	git('add', '-A');
	git('commit', '-q', '-m', 'init');
	writeFileSync(join(root, 'src', 'app.ts'), 'export const app = 2;\n');
	return root;
}

/** The user's own team (outside the workspace): one agent searches and runs a command, one checks. */
function team(): string {
	const file = join(folder('massgen-hosttools-cfg-'), 'team.yaml');
	const toolCalls = [
		{ name: 'search_files', arguments: { pattern: 'app' } },
		{ name: 'run_command', arguments: { command: 'ls src' } },
	];
	writeFileSync(
		file,
		stringify({
			agents: [
				{
					id: 'worker',
					backend: {
						type: 'scripted',
						enable_command_execution: true,
						script: { coordination: [{ tool_calls: toolCalls, answer: 'Looked.' }, { vote: 'first' }] },
					},
				},
				{
					id: 'checker',
					backend: {
						type: 'scripted',
						script: { latency_ms: 50, coordination: [{ answer: 'Nothing to do.' }, { vote: 'first' }] },
					},
				},
			],
		}),
	);
	return file;
}

async function run(root: string, bins: string): Promise<string[]> {
	const log = join(folder('massgen-hosttools-log-'), 'ran.log');
	standIns(bins, log);
	const result = await runCli(['run', '--yes', '--attach-diff', '--config', team(), 'Look around'], {
		cwd: root,
		env: {
			PATH: [bins, process.env.PATH].join(delimiter),
			XDG_CONFIG_HOME: folder('massgen-hosttools-xdg-'),
		},
		deadlineMs: 60_000,
	});
	expect(result.code, result.stderr).toBe(0);
	return existsSync(log) ? [...new Set(readFileSync(log, 'utf8').trim().split('\n'))].sort() : [];
}

const detection = process.platform === 'linux' ? await detectSandbox() : { sandbox: null };

describe.runIf(detection.sandbox !== null && existsSync(cliPath))(
	'massgen run: host tools and the workspace PATH',
	() => {
		it('no tool in the workspace’s node_modules/.bin runs; the same stand-ins outside the workspace do (control)', async () => {
			const root = workspace();
			expect(await run(root, join(root, 'node_modules', '.bin'))).toEqual([]);
			const outside = await run(workspace(), join(folder('massgen-hosttools-bin-'), 'bin'));
			expect(outside).toEqual(expect.arrayContaining(['bwrap', 'git', 'rg']));
		});
	},
);
