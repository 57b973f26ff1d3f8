import { afterEach, describe, expect, it } from 'vitest';
import { createWorkspace } from '../../../src/core/workspace/createWorkspace.js';
import { sha256 } from '../../../src/core/workspace/sha256.js';
import { hashTree, makeTree, removeTrees } from '../../support/tempTree.js';

afterEach(removeTrees);

async function setup() {
	const root = await makeTree({
		'README.md': '# hello\n',
		'src/a.ts': 'export const a = 1;\n',
		'src/b.ts': 'export const b = 2;\n',
		'src/deep/c.ts': 'c\n',
		'.git/HEAD': 'ref: refs/heads/main\n',
		'.env': 'KEY=1\n',
	});
	return { root, workspace: await createWorkspace(root) };
}

describe('MemoryOverlay', () => {
	it('reads through to the base and sees its own writes and deletes', async () => {
		const { workspace } = await setup();
		const overlay = workspace.createOverlay();
		expect(await overlay.readText('src/a.ts')).toBe('export const a = 1;\n');
		expect(await overlay.readText('nope.ts')).toBeNull();
		expect(await overlay.readText('src')).toBeNull();
		await overlay.write('src/a.ts', 'export const a = 42;\n');
		await overlay.write('src\\new\\d.ts', 'd\n');
		await overlay.delete('src/b.ts');
		expect(await overlay.readText('src/a.ts')).toBe('export const a = 42;\n');
		expect(await overlay.readText('src/new/d.ts')).toBe('d\n');
		expect(await overlay.readText('src/b.ts')).toBeNull();
	});

	it('lists base entries merged with overlay adds and deletes, hiding refused entries', async () => {
		const { workspace } = await setup();
		const overlay = workspace.createOverlay();
		expect(await overlay.list('.')).toEqual([
			{ name: 'README.md', kind: 'file' },
			{ name: 'src', kind: 'directory' },
		]);
		await overlay.delete('src/b.ts');
		await overlay.write('src/new/d.ts', 'd\n');
		await overlay.write('src/e.ts', 'e\n');
		await overlay.write('docs/guide/intro.md', 'intro\n');
		expect(await overlay.list('src')).toEqual([
			{ name: 'a.ts', kind: 'file' },
			{ name: 'deep', kind: 'directory' },
			{ name: 'e.ts', kind: 'file' },
			{ name: 'new', kind: 'directory' },
		]);
		expect((await overlay.list('./')).map((entry) => entry.name)).toEqual(['README.md', 'docs', 'src']);
		expect(await overlay.list('docs')).toEqual([{ name: 'guide', kind: 'directory' }]);
		await expect(overlay.list('missing')).rejects.toThrow("'missing' does not exist");
		await expect(overlay.list('README.md')).rejects.toThrow("'README.md' is a file, not a directory");
	});

	it('refuses structural nonsense with clear errors', async () => {
		const { workspace } = await setup();
		const overlay = workspace.createOverlay();
		await expect(overlay.write('src', 'x')).rejects.toThrow("'src' is a directory");
		await expect(overlay.write('README.md/x', 'x')).rejects.toThrow(
			"cannot create 'README.md/x': 'README.md' is a file",
		);
		await expect(overlay.delete('missing.ts')).rejects.toThrow("'missing.ts' does not exist");
		await expect(overlay.delete('src/deep')).rejects.toThrow("'src/deep' is a directory");
	});

	it('snapshots are immutable copies and seed new overlays', async () => {
		const { workspace } = await setup();
		const overlay = workspace.createOverlay();
		await overlay.write('src/a.ts', 'one\n');
		const snapshot = overlay.snapshot();
		await overlay.write('src/a.ts', 'two\n');
		await overlay.write('later.ts', 'later\n');
		expect([...snapshot.edits]).toEqual([['src/a.ts', 'one\n']]);
		expect(Object.isFrozen(snapshot)).toBe(true);

		const child = workspace.createOverlay(snapshot);
		expect(await child.readText('src/a.ts')).toBe('one\n');
		await child.write('src/a.ts', 'three\n');
		expect([...snapshot.edits]).toEqual([['src/a.ts', 'one\n']]);
		expect(await overlay.readText('src/a.ts')).toBe('two\n');
	});

	it('reports changes with base hashes, sorted, without no-op edits', async () => {
		const { root, workspace } = await setup();
		const before = hashTree(root);
		const overlay = workspace.createOverlay();
		await overlay.write('src/a.ts', 'export const a = 2;\n');
		await overlay.write('src/b.ts', 'export const b = 2;\n');
		await overlay.write('README.md', 'temporary');
		await overlay.write('README.md', '# hello\n');
		await overlay.delete('src/deep/c.ts');
		await overlay.write('added/x.ts', 'x\n');
		await overlay.write('scratch.ts', 'scratch');
		await overlay.delete('scratch.ts');
		expect(await overlay.changes()).toEqual([
			{ path: 'added/x.ts', kind: 'add', baseHash: null, base: null, content: 'x\n' },
			{
				path: 'src/a.ts',
				kind: 'modify',
				baseHash: sha256('export const a = 1;\n'),
				base: 'export const a = 1;\n',
				content: 'export const a = 2;\n',
			},
			{ path: 'src/deep/c.ts', kind: 'delete', baseHash: sha256('c\n'), base: 'c\n', content: null },
		]);
		expect(await overlay.readText('scratch.ts')).toBeNull();
		expect(hashTree(root)).toBe(before);
	});

	it('sha256 is the hex digest of the UTF-8 text', () => {
		expect(sha256('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
		expect(sha256('é')).toHaveLength(64);
	});
});
