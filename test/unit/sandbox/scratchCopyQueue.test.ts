/**
 * The scratch copy copies many files at once: a copy that fails part-way (over its file budget)
 * leaves nothing behind, since it is removed only after every copy already started has ended.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ScratchCopy, ScratchTooLargeError } from '../../../src/core/exec/commandScratch.js';
import { RunSnapshot } from '../../../src/core/workspace/runSnapshot.js';
import { makeTree, removeTrees } from '../../support/tempTree.js';

afterEach(removeTrees);

function leftovers(label: string): string[] {
	return readdirSync(tmpdir()).filter((name) => name.startsWith(`massgen-cmd-${label}-`));
}

describe('scratch copy of many files', () => {
	const files = Object.fromEntries(
		Array.from({ length: 400 }, (_, i) => [`d${i % 7}/sub${i % 3}/f${i}.txt`, `file ${i}\n`.repeat(50)]),
	);

	it('copies every file with its content', async () => {
		const root = await makeTree(files);
		const copy = new ScratchCopy({ workspaceRoot: root, label: 'queue-ok', dependencies: 'mount' });
		const dir = await copy.prepare(new Map(), new RunSnapshot(root));
		try {
			for (const [path, text] of Object.entries(files)) {
				expect(readFileSync(join(dir, path), 'utf8')).toBe(text);
			}
		} finally {
			await copy.dispose();
		}
	});

	it('over its file budget, fails with a clear error and leaves no folder behind', async () => {
		const root = await makeTree(files);
		const copy = new ScratchCopy({ workspaceRoot: root, label: 'queue-fail', maxFiles: 300 });
		await expect(copy.prepare(new Map(), new RunSnapshot(root))).rejects.toThrow(ScratchTooLargeError);
		expect(leftovers('queue-fail')).toEqual([]);
	});
});
