import { rm, truncate, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createToolbox } from '../../../src/core/tools/createToolbox.js';
import { createWorkspace } from '../../../src/core/workspace/createWorkspace.js';
import { RunSnapshot } from '../../../src/core/workspace/runSnapshot.js';
import { sha256 } from '../../../src/core/workspace/sha256.js';
import { makeTree, removeTrees } from '../../support/tempTree.js';

afterEach(removeTrees);

const notes = 'one\ntwo\nthree\n';

describe('RunSnapshot (one base per run, captured at first touch)', () => {
	it('captures a base at its first read; every agent sees that version after the disk changed', async () => {
		const root = await makeTree({ 'notes.txt': notes });
		const workspace = await createWorkspace(root);
		const alice = workspace.createOverlay();
		expect(await alice.readText('notes.txt')).toBe(notes);
		await writeFile(join(root, 'notes.txt'), 'edited by the user\n');
		const bob = workspace.createOverlay();
		expect(await bob.readText('notes.txt')).toBe(notes);
		expect(await alice.readText('notes.txt')).toBe(notes);
		// A path first touched after the edit captures the edited text (the team never saw the older one).
		await writeFile(join(root, 'later.txt'), 'v1\n');
		await writeFile(join(root, 'later.txt'), 'v2\n');
		expect(await bob.readText('later.txt')).toBe('v2\n');
	});

	it('captures absence too: a file the user creates after the team looked is not there for the team', async () => {
		const root = await makeTree({ 'a.txt': 'a\n' });
		const workspace = await createWorkspace(root);
		const overlay = workspace.createOverlay();
		expect(await overlay.readText('new.txt')).toBeNull();
		await writeFile(join(root, 'new.txt'), 'user\n');
		expect(await workspace.createOverlay().readText('new.txt')).toBeNull();
		await overlay.write('new.txt', 'team\n');
		expect(await overlay.changes()).toEqual([
			{ path: 'new.txt', kind: 'add', baseHash: null, base: null, content: 'team\n' },
		]);
	});

	it('keeps listing what reads captured as it was, and captures nothing by listing', async () => {
		const root = await makeTree({ 'src/a.ts': 'a\n', 'src/b.ts': 'b\n' });
		const workspace = await createWorkspace(root);
		const overlay = workspace.createOverlay();
		expect(await overlay.readText('src/a.ts')).toBe('a\n');
		expect(await overlay.readText('src/gone.ts')).toBeNull();
		expect((await overlay.list('src')).map((entry) => entry.name)).toEqual(['a.ts', 'b.ts']);
		await writeFile(join(root, 'src/b.ts'), 'changed\n');
		await unlink(join(root, 'src/a.ts'));
		await writeFile(join(root, 'src/c.ts'), 'c\n');
		await writeFile(join(root, 'src/gone.ts'), 'late\n');
		const other = workspace.createOverlay();
		expect(await other.readText('src/a.ts')).toBe('a\n');
		// b.ts was only listed, never read: its base is the disk's at the first read.
		expect(await other.readText('src/b.ts')).toBe('changed\n');
		// a.ts stays (captured), gone.ts stays hidden (captured absent), c.ts is new to the run.
		expect((await other.list('src')).map((entry) => entry.name)).toEqual(['a.ts', 'b.ts', 'c.ts']);
		await rm(join(root, 'src'), { recursive: true });
		expect((await other.list('.')).map((entry) => entry.name)).toEqual(['src']);
		expect(await other.readText('src/b.ts')).toBe('changed\n');
	});

	it('captures at the first write or delete, so the change set carries the base the team replaced', async () => {
		const root = await makeTree({ 'w.txt': 'w0\n', 'd.txt': 'd0\n' });
		const workspace = await createWorkspace(root);
		const overlay = workspace.createOverlay();
		await overlay.write('w.txt', 'w1\n');
		await overlay.delete('d.txt');
		await writeFile(join(root, 'w.txt'), 'user\n');
		await writeFile(join(root, 'd.txt'), 'user\n');
		expect(await overlay.changes()).toEqual([
			{ path: 'd.txt', kind: 'delete', baseHash: sha256('d0\n'), base: 'd0\n', content: null },
			{ path: 'w.txt', kind: 'modify', baseHash: sha256('w0\n'), base: 'w0\n', content: 'w1\n' },
		]);
	});

	it('concurrent first touches of one path read the disk once and agree', async () => {
		const root = await makeTree({ 'x.txt': 'first\n' });
		const snapshot = new RunSnapshot(root);
		const reads = Array.from({ length: 20 }, () => snapshot.entry('x.txt'));
		// The disk changes while the captures are in flight: all of them still see one version.
		await writeFile(join(root, 'x.txt'), 'second\n');
		const entries = await Promise.all(reads);
		expect(new Set(entries).size).toBe(1);
		expect(entries[0]).toMatchObject({ kind: 'file' });
		expect(await snapshot.text('x.txt')).toBe((entries[0] as { text: string }).text);
	});

	it('refuses a file over the cap with its size and the cap, without reading it', async () => {
		const root = await makeTree({ 'small.txt': 'ok\n' });
		// A sparse 200 MB file: reading it whole would need hundreds of MB of memory.
		await writeFile(join(root, 'huge.log'), '');
		await truncate(join(root, 'huge.log'), 200_000_000);
		const workspace = await createWorkspace(root, { maxFileBytes: 1024 * 1024 });
		const overlay = workspace.createOverlay();
		const rss = process.memoryUsage().rss;
		await expect(overlay.readText('huge.log')).rejects.toThrow(
			"'huge.log' is 190.7 MiB (200000000 bytes), over the 1.0 MiB limit for a file the team may read or change",
		);
		expect(process.memoryUsage().rss - rss).toBeLessThan(50_000_000);
		await expect(overlay.write('huge.log', 'x')).rejects.toThrow(/over the 1.0 MiB limit/);
		await expect(overlay.delete('huge.log')).rejects.toThrow(/over the 1.0 MiB limit/);
		expect((await overlay.list('.')).map((entry) => entry.name)).toEqual(['huge.log', 'small.txt']);

		const tools = createToolbox({ overlay, writable: false });
		const read = await tools.execute('read_file', { path: 'huge.log' }, new AbortController().signal);
		expect(read).toEqual({
			isError: true,
			text: expect.stringContaining(
				"read_file: 'huge.log' is 190.7 MiB (200000000 bytes), over the 1.0 MiB limit",
			),
		});
		const search = await tools.execute('search_files', { pattern: 'ok' }, new AbortController().signal);
		expect(search.text).toContain('small.txt:1: ok');
	});

	it('defaults the cap to 8 MiB', async () => {
		const workspace = await createWorkspace(await makeTree());
		expect(workspace.runSnapshot.maxFileBytes).toBe(8 * 1024 * 1024);
	});
});
