/**
 * search_files with ripgrep reading the disk: the run's view (the agent's overlay, the run
 * snapshot's captured texts) still wins, secret paths never show, hostile patterns never reach rg,
 * and rg is killed on cancel. A logging wrapper script around the real `rg` proves rg was used.
 */
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createToolbox } from '../../../src/core/tools/createToolbox.js';
import { ripgrepOnPath } from '../../../src/core/util/ripgrepBinary.js';
import { createWorkspace } from '../../../src/core/workspace/createWorkspace.js';
import { secretPaths } from '../../../src/core/workspace/secretPaths.js';
import { addFiles, makeTree, removeTrees } from '../../support/tempTree.js';

afterEach(removeTrees);

const rg = ripgrepOnPath() ?? 'rg (not on PATH: install ripgrep)';

/** A script that logs each start (its pid) and runs `command` in its place (exec keeps the pid). */
async function wrapper(command: string): Promise<{ binary: string; starts: () => Promise<string[]> }> {
	const dir = await makeTree();
	const log = join(dir, 'starts.log');
	const binary = join(dir, 'rg-wrapper');
	await writeFile(binary, `#!/bin/sh\necho $$ >> '${log}'\nexec ${command} "$@"\n`);
	await chmod(binary, 0o755);
	const starts = async () => (await readFile(log, 'utf8').catch(() => '')).split('\n').filter(Boolean);
	return { binary, starts };
}

async function setup(files: Record<string, string>, ripgrep: string, extraSecrets: string[] = []) {
	const root = await makeTree(files);
	const workspace = await createWorkspace(root, { ripgrep, secretPaths: secretPaths(extraSecrets) });
	const overlay = workspace.createOverlay();
	const toolbox = createToolbox({ overlay, writable: true });
	const run = (name: string, args: Record<string, unknown>, signal = new AbortController().signal) =>
		toolbox.execute(name, args, signal);
	return { root, overlay, run, search: (args: Record<string, unknown>) => run('search_files', args) };
}

describe('search_files with ripgrep', () => {
	it('runs rg for a folder, and the agent’s overlay wins over the disk, merged in path order', async () => {
		const { binary, starts } = await wrapper(rg);
		const { overlay, search } = await setup(
			{
				'a.ts': 'needle on disk\n',
				'b.ts': 'needle deleted by the agent\n',
				'd.ts': 'needle untouched\n',
				'sub/e.ts': 'needle below\n',
			},
			binary,
		);
		await overlay.write('a.ts', 'needle edited\n');
		await overlay.delete('b.ts');
		await overlay.write('c.ts', 'needle created\n');
		await overlay.write('sub/0.ts', 'needle first in sub\n');
		expect((await search({ pattern: 'needle' })).text).toBe(
			[
				'a.ts:1: needle edited',
				'c.ts:1: needle created',
				'd.ts:1: needle untouched',
				'sub/0.ts:1: needle first in sub',
				'sub/e.ts:1: needle below',
			].join('\n'),
		);
		expect(await starts()).toHaveLength(1);
	});

	it('with more matches than it keeps, searches again in path order and stops at the 200th', async () => {
		const { binary, starts } = await wrapper(rg);
		const many = (name: string) => Array.from({ length: 500 }, (_, i) => `${name} hit ${i}`).join('\n');
		const { overlay, search } = await setup(
			{ 'b.txt': many('b'), 'c.txt': many('c'), 'd.txt': many('d') },
			binary,
		);
		await overlay.write('a.txt', 'a hit\n');
		const lines = (await search({ pattern: 'hit' })).text.split('\n');
		expect(lines).toHaveLength(201);
		expect(lines.slice(0, 3)).toEqual(['a.txt:1: a hit', 'b.txt:1: b hit 0', 'b.txt:2: b hit 1']);
		expect(lines[199]).toBe('b.txt:199: b hit 198');
		expect(lines[200]).toBe('(truncated: more than 200 matches; narrow the pattern or the path)');
		// The unsorted search gave up past 1,000 matches; the sorted one found the first ones.
		expect(await starts()).toHaveLength(2);
	});

	it('shows what the run captured, not what the disk holds now', async () => {
		const { root, run, search } = await setup({ 'x.ts': 'needle as read\n' }, rg);
		await run('read_file', { path: 'x.ts' });
		await run('read_file', { path: 'later.ts' });
		// The user edits mid-run: the team keeps its base, and a file it saw absent stays absent.
		await addFiles(root, {
			'x.ts': 'needle as the user saved it\n',
			'later.ts': 'needle new\n',
			'y.ts': 'needle\n',
		});
		expect((await search({ pattern: 'needle' })).text).toBe('x.ts:1: needle as read\ny.ts:1: needle');
	});

	it('never shows secret paths, built-in or the user’s, nor .git or .massgen', async () => {
		const { search } = await setup(
			{
				'.env': 'TOKEN=needle-secret-1\n',
				'config/.env.local': 'needle-secret-2\n',
				'.ssh/id_rsa': 'needle-secret-3\n',
				'certs/server.pem': 'needle-secret-4\n',
				'deploy/prod.secret': 'needle-secret-5\n',
				'.GIT/config': 'needle-secret-6\n',
				'.massgen/runs/x.json': 'needle-secret-7\n',
				'src/ok.ts': 'needle-public\n',
			},
			rg,
			['*.secret'],
		);
		const text = (await search({ pattern: 'needle' })).text;
		expect(text).toBe('src/ok.ts:1: needle-public');
		expect(text).not.toMatch(/secret/);
		expect((await search({ pattern: 'needle', path: 'config' })).text).toBe(
			"no matches for /needle/ in 'config'",
		);
	});

	it('refuses a hostile pattern before rg starts, and falls back to the walker for what rg lacks', async () => {
		const { binary, starts } = await wrapper(rg);
		const { search } = await setup({ 'a.ts': 'const x = 1;\n' }, binary);
		const hostile = await search({ pattern: '(\\w+\\s?){1000}$' });
		expect(hostile.isError).toBe(true);
		expect(hostile.text).toMatch(/too complex/);
		expect(await starts()).toHaveLength(0);
		// rg's engine has no lookbehind: it refuses, and the walker answers.
		expect((await search({ pattern: '(?<=const )x' })).text).toBe('a.ts:1: const x = 1;');
		expect(await starts()).toHaveLength(1);
	});

	it('honours the .gitignore files of the folders above a searched subfolder, up to the root', async () => {
		const { binary, starts } = await wrapper(rg);
		const { search } = await setup(
			{
				'.gitignore': '*.log\n',
				'packages/.gitignore': 'gen/\n',
				'packages/app/debug.log': 'needle\n',
				'packages/app/gen/x.ts': 'needle\n',
				'packages/app/src/main.ts': 'needle\n',
			},
			binary,
		);
		expect((await search({ pattern: 'needle', path: 'packages/app' })).text).toBe(
			'packages/app/src/main.ts:1: needle',
		);
		expect(await starts()).toHaveLength(1);
	});

	it('falls back to the walker when the binary is missing', async () => {
		const { search } = await setup({ 'a.ts': 'needle\n' }, '/nonexistent/rg');
		expect((await search({ pattern: 'needle' })).text).toBe('a.ts:1: needle');
	});

	it('uses the walker when the agent edited a .gitignore (rg would read the disk’s rules)', async () => {
		const { binary, starts } = await wrapper(rg);
		const { overlay, search } = await setup({ '.gitignore': 'dist/\n', 'dist/a.js': 'needle\n' }, binary);
		await overlay.write('.gitignore', '');
		expect((await search({ pattern: 'needle' })).text).toBe('dist/a.js:1: needle');
		expect(await starts()).toHaveLength(0);
	});

	it('kills rg when the call is cancelled', async () => {
		// A stand-in that never answers: only the kill ends it.
		const { binary, starts } = await wrapper('sleep 30 #');
		const { run } = await setup({ 'a.ts': 'needle\n' }, binary);
		const controller = new AbortController();
		const outcome = run('search_files', { pattern: 'needle' }, controller.signal);
		while ((await starts()).length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
		controller.abort();
		expect(await outcome).toEqual({ text: 'search_files: cancelled', isError: true });
		const pid = Number((await starts())[0]);
		expect(() => process.kill(pid, 0)).toThrow();
	});
});
