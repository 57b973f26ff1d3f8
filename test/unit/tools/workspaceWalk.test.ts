import { afterEach, describe, expect, it } from 'vitest';
import { TimeSlice } from '../../../src/core/tools/timeSlice.js';
import { walkFiles } from '../../../src/core/tools/workspaceWalk.js';
import { createWorkspace } from '../../../src/core/workspace/createWorkspace.js';
import { makeTree, removeTrees } from '../../support/tempTree.js';

afterEach(removeTrees);

async function walk(
	files: Record<string, string>,
	options: { maxDepth?: number; maxEntries?: number; deadline?: number } = {},
) {
	const overlay = (await createWorkspace(await makeTree(files))).createOverlay();
	const seen: string[] = [];
	const slice = new TimeSlice(new AbortController().signal);
	const report = await walkFiles(
		overlay,
		'.',
		{ slice, ...options },
		async (path) => (seen.push(path), true),
	);
	return { seen, cuts: report.cuts };
}

describe('walkFiles', () => {
	it('visits files depth-first in sorted order, and reports nothing cut', async () => {
		expect(await walk({ 'b.txt': '', 'a/z.txt': '', 'a/b/c.txt': '', 'c.txt': '' })).toEqual({
			seen: ['a/b/c.txt', 'a/z.txt', 'b.txt', 'c.txt'],
			cuts: [],
		});
	});

	it('stops at the entry cap, skips folders past the depth cap, stops at the deadline', async () => {
		const files = { 'a/1.txt': '', 'a/2.txt': '', 'b/c/d/e.txt': '', 'z.txt': '' };
		expect(await walk(files, { maxEntries: 3 })).toEqual({
			seen: ['a/1.txt', 'a/2.txt'],
			cuts: ['stopped after 3 files and folders (the limit)'],
		});
		expect(await walk(files, { maxDepth: 2 })).toEqual({
			seen: ['a/1.txt', 'a/2.txt', 'z.txt'],
			cuts: ["skipped folders more than 2 levels deep, e.g. 'b/c/d'"],
		});
		expect(await walk(files, { deadline: performance.now() })).toEqual({
			seen: [],
			cuts: ['stopped at the time limit'],
		});
	});
});
