import {
	existsSync,
	lstatSync,
	mkdirSync,
	readFileSync,
	readlinkSync,
	symlinkSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatCommandResult, runShellCommand } from '../../../src/core/exec/commandRunner.js';
import { ScratchCopy } from '../../../src/core/exec/commandScratch.js';
import { RunSnapshot } from '../../../src/core/workspace/runSnapshot.js';
import { commandEnvironment } from '../../../src/core/exec/sandbox/commandEnvironment.js';
import { makeWorkspaceDir } from '../../fakes/team.js';
import { isAlive } from '../../servers/mcp/launch.js';
import { waitFor } from '../../support/waitFor.js';

const posix = process.platform !== 'win32';

function project(): string {
	const root = makeWorkspaceDir({
		'README.md': '# project\n',
		'src/a.ts': 'export const a = 1;\n',
		'.gitignore': 'dist/\n*.log\n',
		'dist/out.js': 'built',
		'debug.log': 'noise',
		'.git/config': '[core]',
		'.env': 'SECRET=1',
		'.env.local': 'SECRET=2',
		'.massgen/runs/x/events.jsonl': '{}',
		'node_modules/pkg/index.js': 'module.exports = 1;',
		'packages/p/node_modules/dep/index.js': 'nested dependency',
	});
	symlinkSync('src/a.ts', join(root, 'link-inside.ts'));
	symlinkSync('/etc/hosts', join(root, 'link-outside'));
	return root;
}

const env = commandEnvironment(process.env, { home: tmpdir(), tempDir: tmpdir() });

describe('scratch copy for run_command', () => {
	it('copies what git would see, links dependency folders, applies the overlay, and never writes the workspace', async () => {
		const root = project();
		const scratch = new ScratchCopy({ workspaceRoot: root, label: 'agent 1' });
		const dir = await scratch.prepare(
			new Map([
				['src/a.ts', 'export const a = 2;\n'],
				['new/b.txt', 'new file'],
				['README.md', null],
				['node_modules/pkg/index.js', 'tampered'],
			]),
			new RunSnapshot(root),
		);
		expect(dir).toMatch(/massgen-cmd-agent_1-/);
		expect(readFileSync(join(dir, 'src/a.ts'), 'utf8')).toBe('export const a = 2;\n');
		expect(readFileSync(join(dir, 'new/b.txt'), 'utf8')).toBe('new file');
		expect(existsSync(join(dir, 'README.md'))).toBe(false);
		for (const absent of ['.git', '.env', '.env.local', '.massgen', 'dist', 'debug.log', 'link-outside']) {
			expect(existsSync(join(dir, absent))).toBe(false);
		}
		expect(lstatSync(join(dir, 'node_modules')).isSymbolicLink()).toBe(true);
		expect(readlinkSync(join(dir, 'node_modules'))).toBe(join(root, 'node_modules'));
		expect(lstatSync(join(dir, 'packages/p/node_modules')).isSymbolicLink()).toBe(true);
		expect(readFileSync(join(dir, 'link-inside.ts'), 'utf8')).toBe('export const a = 2;\n');
		// An overlay edit inside a linked folder is never written through the link.
		expect(readFileSync(join(root, 'node_modules/pkg/index.js'), 'utf8')).toBe('module.exports = 1;');
		expect(scratch.isLinked('packages/p/node_modules/dep')).toBe(true);

		// The next command sees the overlay as it is now: dropped edits are restored.
		writeFileSync(join(dir, 'made-by-a-command.txt'), 'x');
		await scratch.prepare(new Map([['src/a.ts', 'export const a = 3;\n']]), new RunSnapshot(root));
		expect(readFileSync(join(dir, 'src/a.ts'), 'utf8')).toBe('export const a = 3;\n');
		expect(readFileSync(join(dir, 'README.md'), 'utf8')).toBe('# project\n');
		expect(existsSync(join(dir, 'new/b.txt'))).toBe(false);
		expect(existsSync(join(dir, 'made-by-a-command.txt'))).toBe(true);

		// The workspace itself is untouched; disposing removes links, never what they point at.
		expect(readFileSync(join(root, 'src/a.ts'), 'utf8')).toBe('export const a = 1;\n');
		expect(existsSync(join(root, 'new'))).toBe(false);
		await scratch.dispose();
		expect(existsSync(dir)).toBe(false);
		expect(readFileSync(join(root, 'node_modules/pkg/index.js'), 'utf8')).toBe('module.exports = 1;');
		expect(readFileSync(join(root, 'packages/p/node_modules/dep/index.js'), 'utf8')).toBe(
			'nested dependency',
		);
	});

	it('refuses a workspace larger than its cap', async () => {
		const root = makeWorkspaceDir({ 'a.txt': 'x'.repeat(2000) });
		const scratch = new ScratchCopy({ workspaceRoot: root, label: 'big', maxBytes: 1000 });
		await expect(scratch.prepare(new Map(), new RunSnapshot(root))).rejects.toThrow(
			/too large for a scratch copy/,
		);
		await scratch.dispose();
	});
});

describe.runIf(posix)('runShellCommand', () => {
	const run = (
		command: string,
		options: { timeoutMs?: number; maxOutputBytes?: number; signal?: AbortSignal; cwd?: string } = {},
	) =>
		runShellCommand({
			command,
			cwd: options.cwd ?? makeWorkspaceDir(),
			env,
			timeoutMs: options.timeoutMs ?? 10_000,
			maxOutputBytes: options.maxOutputBytes ?? 64 * 1024,
			signal: options.signal ?? new AbortController().signal,
		});

	it('captures stdout and stderr together with the exit code', async () => {
		const result = await run('echo out; echo err 1>&2; exit 3');
		expect(result).toMatchObject({ exitCode: 3, timedOut: false, cancelled: false, output: 'out\nerr\n' });
		expect(formatCommandResult(result, 10_000)).toMatch(/^exit code 3 \(\d+\.\d s\)\nout\nerr$/);
		expect(formatCommandResult(await run('true'), 10_000)).toMatch(/\n\(no output\)$/);
	});

	it('kills the whole process group on timeout: no orphan survives', async () => {
		const started = Date.now();
		const result = await run('sleep 30 & echo $!; wait', { timeoutMs: 400 });
		expect(result.timedOut).toBe(true);
		expect(Date.now() - started).toBeLessThan(5000);
		const orphan = Number(result.output.trim());
		expect(orphan).toBeGreaterThan(0);
		await waitFor(() => !isAlive(orphan), 'the background sleep to die', { timeoutMs: 3000 });
		expect(formatCommandResult(result, 400)).toMatch(
			/^timed out after 0 s \(the command and everything it started were killed\)/,
		);
	});

	it('ends background jobs when the command itself is done', async () => {
		const result = await run('sleep 30 >/dev/null 2>&1 & echo $!');
		expect(result.exitCode).toBe(0);
		const orphan = Number(result.output.trim());
		await waitFor(() => !isAlive(orphan), 'the background job to be ended', { timeoutMs: 3000 });
	});

	it('cancellation kills the group at once', async () => {
		const controller = new AbortController();
		setTimeout(() => controller.abort(), 200);
		const started = Date.now();
		const result = await run('sleep 30', { signal: controller.signal });
		expect(result.cancelled).toBe(true);
		expect(Date.now() - started).toBeLessThan(3000);
	});

	it('caps the output, keeping the head and the tail', async () => {
		const result = await run('seq 1 100000', { maxOutputBytes: 4000 });
		expect(result.omittedBytes).toBeGreaterThan(500_000);
		expect(result.output.startsWith('1\n2\n3\n')).toBe(true);
		expect(result.output.trimEnd().endsWith('99999\n100000')).toBe(true);
		expect(result.output).toMatch(/\[… \d+ bytes of output omitted …\]/);
		expect(Buffer.byteLength(result.output)).toBeLessThan(4200);
	});

	it('gives commands only allow-listed variables, a scratch home and a non-interactive environment', async () => {
		const parent = {
			PATH: process.env['PATH'],
			LANG: 'C.UTF-8',
			LC_ALL: 'C',
			OPENAI_API_KEY: 'sk-x',
			GITHUB_TOKEN: 'ghp',
			DATABASE_URL: 'postgres://u:pw@h/db',
			GH_PAT: 'pat-1',
			HOME: '/home/u',
		};
		const environment = commandEnvironment(parent, {
			home: '/scratch/home',
			tempDir: '/scratch/home/tmp',
			ceiling: '/scratch',
		});
		expect(environment).toEqual({
			PATH: process.env['PATH'],
			LANG: 'C.UTF-8',
			LC_ALL: 'C',
			HOME: '/scratch/home',
			TMPDIR: '/scratch/home/tmp',
			CI: '1',
			PAGER: 'cat',
			GIT_PAGER: 'cat',
			GIT_TERMINAL_PROMPT: '0',
			NO_COLOR: '1',
			FORCE_COLOR: '0',
			TERM: 'dumb',
			GIT_CEILING_DIRECTORIES: '/scratch',
		});
		const result = await runShellCommand({
			command: 'env',
			cwd: makeWorkspaceDir(),
			env: environment,
			timeoutMs: 5000,
			maxOutputBytes: 65536,
			signal: new AbortController().signal,
		});
		expect(result.output).not.toMatch(/sk-x|ghp|pw@h|pat-1|\/home\/u/);
	});

	it('runs in the given folder', async () => {
		const root = makeWorkspaceDir({ 'sub/file.txt': 'x' });
		mkdirSync(join(root, 'sub', 'deeper'));
		expect((await run('ls', { cwd: join(root, 'sub') })).output).toBe('deeper\nfile.txt\n');
	});
});
