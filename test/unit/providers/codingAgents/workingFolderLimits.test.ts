/** What a coding agent leaves in its folder is read bounded: a huge file is not loaded, a FIFO not opened. */
import { execFileSync } from 'node:child_process';
import { truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WorkingFolder } from '../../../../src/core/providers/codingAgents/workingFolder.js';
import { createWorkspace } from '../../../../src/core/workspace/createWorkspace.js';
import { defaultMaxFileBytes } from '../../../../src/core/workspace/runSnapshot.js';
import { makeWorkspaceDir } from '../../../fakes/team.js';

describe.runIf(process.platform !== 'win32')("a coding agent's working folder, bounded", () => {
	const folders: WorkingFolder[] = [];
	afterEach(async () => {
		for (const folder of folders.splice(0)) await folder.dispose();
	});

	it('a file over the file cap is skipped unread, a FIFO is ignored, a normal edit comes through', async () => {
		const root = makeWorkspaceDir({ 'a.txt': 'a\n' });
		const overlay = (await createWorkspace(root)).createOverlay();
		const folder = new WorkingFolder(root, 'limits', overlay);
		folders.push(folder);
		const dir = await folder.prepare(overlay);
		writeFileSync(join(dir, 'huge.txt'), '');
		// Sparse: 2 GiB + 1 byte, which a whole-file read could not even hold in one Buffer.
		truncateSync(join(dir, 'huge.txt'), 2 ** 31 + 1);
		writeFileSync(join(dir, 'over.txt'), '');
		truncateSync(join(dir, 'over.txt'), defaultMaxFileBytes + 1);
		execFileSync('mkfifo', [join(dir, 'pipe.txt')]);
		writeFileSync(join(dir, 'a.txt'), 'edited\n');
		const diff = await folder.diff();
		expect(diff.edits).toEqual([{ path: 'a.txt', content: 'edited\n' }]);
		expect([...diff.skipped].sort()).toEqual(['huge.txt', 'over.txt']);
	});
});
