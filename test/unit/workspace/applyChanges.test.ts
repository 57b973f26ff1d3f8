import { readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { applyChanges } from '../../../src/core/workspace/applyChanges.js';
import { createWorkspace } from '../../../src/core/workspace/createWorkspace.js';
import { sha256 } from '../../../src/core/workspace/sha256.js';
import type { FileChange } from '../../../src/core/workspace/types.js';
import { hashTree, makeTree, removeTrees } from './tempTree.js';

afterEach(removeTrees);

async function setup() {
	const root = await makeTree({ 'src/a.ts': 'a\n', 'old/gone.txt': 'bye\n', 'keep.txt': 'keep\n' });
	const overlay = (await createWorkspace(root)).createOverlay();
	await overlay.write('src/a.ts', 'a2\n');
	await overlay.write('new/deep/b.ts', 'b\n');
	await overlay.delete('old/gone.txt');
	return { root, changes: await overlay.changes() };
}

const exists = (path: string) => stat(path).then(
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
		const clash: FileChange = { path: 'new-clash.txt', kind: 'add', baseHash: null, content: 'mine' };
		const before = await hashTree(root);
		expect(await applyChanges(root, [...changes, clash])).toEqual({
			applied: [],
			conflicts: [
				{ path: 'src/a.ts', reason: "'src/a.ts' changed since the agents read it" },
				{ path: 'new-clash.txt', reason: "'new-clash.txt' already exists" },
			],
		});
		expect(await hashTree(root)).toBe(before);
	});

	it('reports a deleted base file as a conflict', async () => {
		const { root } = await setup();
		const change: FileChange = { path: 'missing.txt', kind: 'modify', baseHash: sha256('x'), content: 'y' };
		expect((await applyChanges(root, [change])).conflicts).toEqual([
			{ path: 'missing.txt', reason: "'missing.txt' no longer exists" },
		]);
	});

	it('force overrides hash conflicts but never path safety', async () => {
		const { root, changes } = await setup();
		await writeFile(join(root, 'src/a.ts'), 'edited by the user\n');
		expect((await applyChanges(root, changes, { force: true })).applied).toHaveLength(3);
		expect(await readFile(join(root, 'src/a.ts'), 'utf8')).toBe('a2\n');

		const outside = await makeTree();
		await symlink(outside, join(root, 'out'));
		const unsafe: FileChange[] = [
			{ path: '../escape.txt', kind: 'add', baseHash: null, content: 'x' },
			{ path: '.git/hooks/pre-commit', kind: 'add', baseHash: null, content: 'x' },
			{ path: 'out/x.txt', kind: 'add', baseHash: null, content: 'x' },
		];
		const result = await applyChanges(root, unsafe, { force: true });
		expect(result.applied).toEqual([]);
		expect(result.conflicts.map((conflict) => conflict.path)).toEqual(['../escape.txt', '.git/hooks/pre-commit', 'out/x.txt']);
		expect(await exists(join(outside, 'x.txt'))).toBe(false);
	});
});
