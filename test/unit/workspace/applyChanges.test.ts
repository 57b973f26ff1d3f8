import { chmod, link, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { applyChanges } from '../../../src/core/workspace/applyChanges.js';
import { createWorkspace } from '../../../src/core/workspace/createWorkspace.js';
import { sha256 } from '../../../src/core/workspace/sha256.js';
import type { FileChange } from '../../../src/contract/fileChange.js';
import { hashTree, makeTree, removeTrees } from '../../support/tempTree.js';

afterEach(removeTrees);

async function setup() {
	const root = await makeTree({ 'src/a.ts': 'a\n', 'old/gone.txt': 'bye\n', 'keep.txt': 'keep\n' });
	const overlay = (await createWorkspace(root)).createOverlay();
	await overlay.write('src/a.ts', 'a2\n');
	await overlay.write('new/deep/b.ts', 'b\n');
	await overlay.delete('old/gone.txt');
	return { root, changes: await overlay.changes() };
}

const exists = (path: string) =>
	stat(path).then(
		() => true,
		() => false,
	);

describe('applyChanges', () => {
	it('writes every change, creating folders and removing emptied ones', async () => {
		const { root, changes } = await setup();
		expect(await applyChanges(root, changes)).toEqual({
			applied: ['new/deep/b.ts', 'old/gone.txt', 'src/a.ts'],
			conflicts: [],
		});
		expect(await readFile(join(root, 'src/a.ts'), 'utf8')).toBe('a2\n');
		expect(await readFile(join(root, 'new/deep/b.ts'), 'utf8')).toBe('b\n');
		expect(await exists(join(root, 'old/gone.txt'))).toBe(false);
		expect(await exists(join(root, 'old'))).toBe(false);
		expect(await readFile(join(root, 'keep.txt'), 'utf8')).toBe('keep\n');
	});

	it('writes nothing when any target changed since the agents read it', async () => {
		const { root, changes } = await setup();
		await writeFile(join(root, 'src/a.ts'), 'edited by the user\n');
		await writeFile(join(root, 'new-clash.txt'), 'already here');
		const clash: FileChange = {
			path: 'new-clash.txt',
			kind: 'add',
			baseHash: null,
			base: null,
			content: 'mine',
		};
		const before = hashTree(root);
		expect(await applyChanges(root, [...changes, clash])).toEqual({
			applied: [],
			conflicts: [
				{ path: 'src/a.ts', reason: "'src/a.ts' changed since the agents read it" },
				{ path: 'new-clash.txt', reason: "'new-clash.txt' already exists" },
			],
		});
		expect(hashTree(root)).toBe(before);
	});

	it('reports a deleted base file as a conflict', async () => {
		const { root } = await setup();
		const change: FileChange = {
			path: 'missing.txt',
			kind: 'modify',
			baseHash: sha256('x'),
			base: 'x',
			content: 'y',
		};
		expect((await applyChanges(root, [change])).conflicts).toEqual([
			{ path: 'missing.txt', reason: "'missing.txt' no longer exists" },
		]);
	});

	it('refuses paths outside the workspace, inside .git/ or through a link out', async () => {
		const { root } = await setup();
		const outside = await makeTree();
		await symlink(outside, join(root, 'out'));
		const unsafe: FileChange[] = [
			{ path: '../escape.txt', kind: 'add', baseHash: null, base: null, content: 'x' },
			{ path: '.git/hooks/pre-commit', kind: 'add', baseHash: null, base: null, content: 'x' },
			{ path: 'out/x.txt', kind: 'add', baseHash: null, base: null, content: 'x' },
		];
		const result = await applyChanges(root, unsafe);
		expect(result.applied).toEqual([]);
		expect(result.conflicts.map((conflict) => conflict.path)).toEqual([
			'../escape.txt',
			'.git/hooks/pre-commit',
			'out/x.txt',
		]);
		expect(await exists(join(outside, 'x.txt'))).toBe(false);
	});

	it('re-resolves every parent when it writes: a folder that became a link into .git/, a secret or protected path, or out', async () => {
		const root = await makeTree({
			'hooks/readme.txt': 'x\n',
			'.git/hooks/sample': 's\n',
			'locked/a.txt': 'a\n',
			'.ssh/known_hosts': 'h\n',
		});
		const overlay = (await createWorkspace(root)).createOverlay();
		await overlay.write('hooks/pre-commit', '#!/bin/sh\necho pwned\n');
		await overlay.write('cfg/a.txt', 'team\n');
		await overlay.write('keys/known_hosts', 'team\n');
		const changes = await overlay.changes();
		// After the run, the user's tree gets links where the team wrote plain folders.
		await rm(join(root, 'hooks'), { recursive: true });
		await symlink(join(root, '.git/hooks'), join(root, 'hooks'));
		await symlink(join(root, 'locked'), join(root, 'cfg'));
		await symlink(join(root, '.ssh'), join(root, 'keys'));
		const before = hashTree(root);
		const result = await applyChanges(root, changes, { protectedPaths: ['locked'] });
		expect(result.applied).toEqual([]);
		expect(result.conflicts).toEqual([
			{
				path: 'cfg/a.txt',
				reason: "refused: 'cfg/a.txt' is a protected path (via a symlink to 'locked/a.txt')",
			},
			{
				path: 'hooks/pre-commit',
				reason:
					"refused: 'hooks/pre-commit' is inside .git/ (repository internals are never touched) (via a symlink to '.git/hooks/pre-commit')",
			},
			{
				path: 'keys/known_hosts',
				reason: expect.stringMatching(
					/^refused: 'keys\/known_hosts' is a secret path .*\(via a symlink to '\.ssh\/known_hosts'\)$/,
				),
			},
		]);
		expect(hashTree(root)).toBe(before);
		expect(await exists(join(root, '.git/hooks/pre-commit'))).toBe(false);
	});

	it('refuses a parent that became a dangling link and a target that became a link', async () => {
		const root = await makeTree({ 'docs/a.md': 'a\n', 'plain.txt': 'p\n' });
		const overlay = (await createWorkspace(root)).createOverlay();
		await overlay.write('docs/new/b.md', 'b\n');
		await overlay.write('plain.txt', 'team\n');
		const changes = await overlay.changes();
		await rm(join(root, 'docs'), { recursive: true });
		await symlink(join(root, '.git', 'not-yet'), join(root, 'docs'));
		await rm(join(root, 'plain.txt'));
		await symlink(join(root, 'elsewhere.txt'), join(root, 'plain.txt'));
		const before = hashTree(root);
		expect((await applyChanges(root, changes)).conflicts).toEqual([
			{
				path: 'docs/new/b.md',
				reason: "refused: 'docs/new/b.md' lies under a symlink that cannot be resolved",
			},
			{ path: 'plain.txt', reason: "refused: 'plain.txt' is a symlink (an accept never writes through one)" },
		]);
		expect(hashTree(root)).toBe(before);
	});

	it('refuses protected paths named directly', async () => {
		const { root, changes } = await setup();
		const before = hashTree(root);
		const result = await applyChanges(root, changes, { protectedPaths: ['src'] });
		expect(result).toEqual({
			applied: [],
			conflicts: [{ path: 'src/a.ts', reason: "refused: 'src/a.ts' is a protected path" }],
		});
		expect(hashTree(root)).toBe(before);
	});

	it('keeps an executable script executable, and leaves no temporary file behind', async () => {
		const root = await makeTree({ 'run.sh': '#!/bin/sh\necho old\n' });
		await chmod(join(root, 'run.sh'), 0o755);
		const change: FileChange = {
			path: 'run.sh',
			kind: 'modify',
			baseHash: sha256('#!/bin/sh\necho old\n'),
			base: '#!/bin/sh\necho old\n',
			content: '#!/bin/sh\necho new\n',
		};
		expect(await applyChanges(root, [change])).toEqual({ applied: ['run.sh'], conflicts: [] });
		expect((await stat(join(root, 'run.sh'))).mode & 0o777).toBe(0o755);
		expect(await readdir(root)).toEqual(['run.sh']);
	});

	it('replaces a hard-linked file with a new one: the other name (outside the change) keeps its text', async () => {
		const root = await makeTree({ 'app.js': 'old\n' });
		const elsewhere = await makeTree();
		await link(join(root, 'app.js'), join(elsewhere, 'other-name.js'));
		const change: FileChange = {
			path: 'app.js',
			kind: 'modify',
			baseHash: sha256('old\n'),
			base: 'old\n',
			content: 'new\n',
		};
		expect((await applyChanges(root, [change])).applied).toEqual(['app.js']);
		expect(await readFile(join(root, 'app.js'), 'utf8')).toBe('new\n');
		expect(await readFile(join(elsewhere, 'other-name.js'), 'utf8')).toBe('old\n');
	});
});
