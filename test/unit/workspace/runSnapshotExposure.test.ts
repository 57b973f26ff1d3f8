/**
 * The base of a file a command or coding agent was shown without a read tool (`RunSnapshot.expose`):
 * the first version shown, read back from the scratch copy when the user changed the file since,
 * and otherwise an unkept base that accepting never merges against.
 */
import { statSync } from 'node:fs';
import { rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildReviewChangeSet, targetOf } from '../../../src/core/changes/changeSet.js';
import { planFile } from '../../../src/core/changes/planFile.js';
import { resolveAttachments } from '../../../src/core/context/resolveAttachments.js';
import { createToolbox } from '../../../src/core/tools/createToolbox.js';
import { ripgrepOnPath } from '../../../src/core/util/ripgrepBinary.js';
import { createWorkspace } from '../../../src/core/workspace/createWorkspace.js';
import { fileStamp, RunSnapshot, unkeptHash } from '../../../src/core/workspace/runSnapshot.js';
import { sha256 } from '../../../src/core/workspace/sha256.js';
import type { FileChange } from '../../../src/contract/fileChange.js';
import { makeTree, removeTrees } from '../../support/tempTree.js';

afterEach(removeTrees);

const shown = 'line 1\nline 9\n';
const user = 'line 1\nline 9 (user)\n';

/** A workspace with `notes.txt`, and a copy of it made "by a scratch" (finished now). */
async function exposedTree() {
	const root = await makeTree({ 'notes.txt': shown });
	const copyDir = await makeTree({ 'notes.txt': shown });
	const copy: { dir: string | undefined; madeAt: number | undefined } = {
		dir: copyDir,
		madeAt: Date.now() + 1,
	};
	const snapshot = new RunSnapshot(root);
	snapshot.expose('notes.txt', fileStamp(statSync(join(root, 'notes.txt'))), copy);
	return { root, copyDir, copy, snapshot };
}

describe('RunSnapshot.expose: what a command was shown is the base', () => {
	it('control: an exposed file nobody changed is captured from the disk, with its own hash', async () => {
		const { snapshot } = await exposedTree();
		expect(await snapshot.entry('notes.txt')).toEqual({ kind: 'file', text: shown, hash: sha256(shown) });
	});

	it('the user changed it after it was shown: the base is read back from the copy', async () => {
		const { root, snapshot } = await exposedTree();
		await writeFile(join(root, 'notes.txt'), user);
		expect(await snapshot.entry('notes.txt')).toEqual({ kind: 'file', text: shown, hash: sha256(shown) });
	});

	it('the user deleted it after it was shown: the copy still gives the base (accept says "deleted")', async () => {
		const { root, snapshot } = await exposedTree();
		await unlink(join(root, 'notes.txt'));
		expect(await snapshot.entry('notes.txt')).toEqual({ kind: 'file', text: shown, hash: sha256(shown) });
	});

	it('a copy a command changed since, or one removed, no longer tells: the base is unkept', async () => {
		const changed = await exposedTree();
		await writeFile(join(changed.root, 'notes.txt'), user);
		// A write after the copy was finished moves the copy's change time past `madeAt`.
		(changed.copy as { madeAt: number }).madeAt = statSync(join(changed.copyDir, 'notes.txt')).ctimeMs - 1;
		expect(await changed.snapshot.entry('notes.txt')).toEqual({
			kind: 'file',
			text: user,
			hash: unkeptHash(user),
		});

		const removed = await exposedTree();
		await writeFile(join(removed.root, 'notes.txt'), user);
		await rm(removed.copyDir, { recursive: true });
		expect(await removed.snapshot.entry('notes.txt')).toMatchObject({ hash: unkeptHash(user) });
	});

	it('an overlay keeps no copy: a changed file is unkept, a deleted one absent and unkept', async () => {
		const root = await makeTree({ 'a.txt': shown, 'b.txt': shown });
		const snapshot = new RunSnapshot(root);
		for (const path of ['a.txt', 'b.txt']) snapshot.expose(path, fileStamp(statSync(join(root, path))));
		await writeFile(join(root, 'a.txt'), user);
		await unlink(join(root, 'b.txt'));
		expect(await snapshot.entry('a.txt')).toEqual({ kind: 'file', text: user, hash: unkeptHash(user) });
		expect(await snapshot.entry('b.txt')).toEqual({ kind: 'absent', unkept: true });
	});

	it('the first version shown wins; a capture before any exposure is not changed by one', async () => {
		const { root, snapshot } = await exposedTree();
		await writeFile(join(root, 'notes.txt'), user);
		// A later scratch shows the user's version: too late, the first exposure fixed the base.
		snapshot.expose('notes.txt', fileStamp(statSync(join(root, 'notes.txt'))));
		expect(await snapshot.text('notes.txt')).toBe(shown);

		const read = new RunSnapshot(root);
		expect(await read.text('notes.txt')).toBe(user);
		await writeFile(join(root, 'notes.txt'), 'later\n');
		read.expose('notes.txt', fileStamp(statSync(join(root, 'notes.txt'))));
		expect(await read.entry('notes.txt')).toEqual({ kind: 'file', text: user, hash: sha256(user) });
	});

	it('a copy still being made is not read back (its files may be half written)', async () => {
		const { root, copy, snapshot } = await exposedTree();
		(copy as { madeAt: number | undefined }).madeAt = undefined;
		await writeFile(join(root, 'notes.txt'), user);
		expect(await snapshot.entry('notes.txt')).toMatchObject({ text: user, hash: unkeptHash(user) });
	});

	it('never reads the shown bytes through a link leading out of the copy', async () => {
		const { root, copyDir, snapshot } = await exposedTree();
		const outside = await makeTree({ 'secret.txt': 'outside\n' });
		await unlink(join(copyDir, 'notes.txt'));
		await symlink(join(outside, 'secret.txt'), join(copyDir, 'notes.txt'));
		await writeFile(join(root, 'notes.txt'), user);
		expect(await snapshot.entry('notes.txt')).toMatchObject({ text: user, hash: unkeptHash(user) });
	});

	it('the overlay reads the same base, and its change set carries the unkept hash', async () => {
		const root = await makeTree({ 'notes.txt': shown });
		const workspace = await createWorkspace(root);
		workspace.runSnapshot.expose('notes.txt', fileStamp(statSync(join(root, 'notes.txt'))));
		await writeFile(join(root, 'notes.txt'), user);
		const overlay = workspace.createOverlay();
		await overlay.write('notes.txt', 'line 1 (team)\nline 9\n');
		expect(await overlay.changes()).toEqual([
			{
				path: 'notes.txt',
				kind: 'modify',
				baseHash: unkeptHash(user),
				base: user,
				content: 'line 1 (team)\nline 9\n',
			},
		]);
	});
});

describe('planFile: an unkept base is never merged against', () => {
	const team = 'line 1 (team)\nline 9\n';
	const change: FileChange = {
		path: 'notes.txt',
		kind: 'modify',
		baseHash: unkeptHash(user),
		base: user,
		content: team,
	};
	const plan = (current: string | null, deletion = false) => {
		const file = buildReviewChangeSet({
			runId: 'r',
			winner: null,
			changes: [deletion ? { ...change, kind: 'delete', content: null } : change],
		}).files[0]!;
		return planFile(file, targetOf(file, new Set(file.hunks.map((hunk) => hunk.id))), current, sha256);
	};

	it('a file that is still the text captured is a conflict, not a silent write of the team’s version', () => {
		// With a trusted base this would apply (current === base), undoing the user's line 9.
		expect(plan(user)).toMatchObject({ outcome: 'conflict', reason: 'unseen', conflicts: 1 });
		const resolution = plan(user);
		expect(resolution.outcome === 'conflict' && resolution.resolution).toMatchObject({
			kind: 'write',
			text: expect.stringContaining(
				'<<<<<<< Current\nline 1\nline 9 (user)\n=======\nline 1 (team)\nline 9\n>>>>>>>',
			),
		});
	});

	it('already the team’s text: nothing to do; a deletion of it: a conflict', () => {
		expect(plan(team)).toEqual({ path: 'notes.txt', outcome: 'already' });
		expect(plan(user, true)).toMatchObject({ outcome: 'conflict', reason: 'modified' });
	});

	it('control: the same change with the base’s own hash applies', () => {
		const file = buildReviewChangeSet({
			runId: 'r',
			winner: null,
			changes: [{ ...change, baseHash: sha256(user) }],
		}).files[0]!;
		expect(
			planFile(file, targetOf(file, new Set(file.hunks.map((hunk) => hunk.id))), user, sha256),
		).toMatchObject({
			outcome: 'apply',
		});
	});
});

describe('search_files: a file whose lines a search showed has its base from then', () => {
	for (const ripgrep of [undefined, ripgrepOnPath(process.env) ?? undefined]) {
		it(`the user's later edit is merged against what the search showed (${ripgrep ? 'ripgrep' : 'walker'})`, async () => {
			const root = await makeTree({ 'notes.txt': shown, 'other.txt': 'no match here\n' });
			const workspace = await createWorkspace(root, ripgrep ? { ripgrep } : {});
			const overlay = workspace.createOverlay();
			const tools = createToolbox({ overlay, writable: true });
			const search = await tools.execute('search_files', { pattern: 'line 9' }, new AbortController().signal);
			expect(search.text).toBe('notes.txt:2: line 9');
			await writeFile(join(root, 'notes.txt'), user);
			await writeFile(join(root, 'other.txt'), 'changed by the user\n');
			await overlay.write('notes.txt', 'line 1 (team)\nline 9\n');
			expect(await overlay.changes()).toEqual([
				expect.objectContaining({ path: 'notes.txt', base: shown, baseHash: sha256(shown) }),
			]);
			// A file the search read but did not show is not held: its base is taken when first touched.
			expect(await overlay.readText('other.txt')).toBe('changed by the user\n');
		});
	}
});

describe('attachments: an attached file has its base from when it was attached', () => {
	for (const request of [
		{ kind: 'path', path: 'notes.txt' },
		{ kind: 'file', path: 'notes.txt', range: { start: 2, end: 2 } },
	] as const) {
		it(`the user's later edit is merged against the attached version (${request.kind})`, async () => {
			const root = await makeTree({ 'notes.txt': shown });
			const workspace = await createWorkspace(root);
			const [attached] = await resolveAttachments([request], workspace);
			expect(attached).toMatchObject({ kind: 'file', path: 'notes.txt' });
			await writeFile(join(root, 'notes.txt'), user);
			const overlay = workspace.createOverlay();
			expect(await overlay.readText('notes.txt')).toBe(shown);
			await overlay.write('notes.txt', 'line 1 (team)\nline 9\n');
			expect(await overlay.changes()).toEqual([
				expect.objectContaining({ path: 'notes.txt', base: shown, baseHash: sha256(shown) }),
			]);
		});
	}
});
