/**
 * A coding agent's folder shows the workspace to a CLI whose own tools (Read, cat, an editor)
 * record nothing: the folder records each file it lays out (`RunSnapshot.expose`), so the user's
 * mid-run edit of a file the CLI saw is merged against what it saw, or is a clean conflict.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildReviewChangeSet, targetOf } from '../../../../src/core/changes/changeSet.js';
import { planFile } from '../../../../src/core/changes/planFile.js';
import { WorkingFolder } from '../../../../src/core/providers/codingAgents/workingFolder.js';
import { createWorkspace } from '../../../../src/core/workspace/createWorkspace.js';
import { unkeptHash } from '../../../../src/core/workspace/runSnapshot.js';
import { sha256 } from '../../../../src/core/workspace/sha256.js';
import type { FileChange } from '../../../../src/contract/fileChange.js';
import { makeWorkspaceDir } from '../../../fakes/team.js';

const lines = (count: number) => Array.from({ length: count }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
const notes = lines(12);
const user = notes.replace('line 9\n', 'line 9 (user)\n');
const team = notes.replace('line 1\n', 'line 1 (team)\n');

/** How accepting the change plans the file as it is on disk now. */
function acceptPlan(change: FileChange, root: string) {
	const file = buildReviewChangeSet({ runId: 'r', winner: null, changes: [change] }).files[0]!;
	const current = readFileSync(join(root, change.path), 'utf8');
	return planFile(file, targetOf(file, new Set(file.hunks.map((hunk) => hunk.id))), current, sha256);
}

describe("a coding agent's folder records the base of what it shows", () => {
	const folders: WorkingFolder[] = [];
	afterEach(async () => {
		for (const folder of folders.splice(0)) await folder.dispose();
	});

	async function setUp() {
		const root = makeWorkspaceDir({ 'notes.txt': notes });
		const workspace = await createWorkspace(root);
		const overlay = workspace.createOverlay();
		const folder = new WorkingFolder(root, 'cli', overlay);
		folders.push(folder);
		const dir = await folder.prepare(overlay);
		return { root, workspace, overlay, folder, dir };
	}

	it('the CLI only read the file; the user saves line 9; the winner rewrites it: the edits merge', async () => {
		const { root, workspace } = await setUp();
		writeFileSync(join(root, 'notes.txt'), user);
		const winner = workspace.createOverlay();
		await winner.write('notes.txt', team);
		const [change] = await winner.changes();
		// The base is what the folder showed, read back from it: not the user's version.
		expect(change).toMatchObject({ base: notes, baseHash: sha256(notes) });
		expect(acceptPlan(change!, root)).toMatchObject({
			outcome: 'merged',
			op: { text: team.replace('line 9\n', 'line 9 (user)\n') },
		});
	});

	it('the CLI rewrote the file in its folder and the user saved line 9: a conflict, never a revert', async () => {
		const { root, overlay, folder, dir } = await setUp();
		writeFileSync(join(root, 'notes.txt'), user);
		writeFileSync(join(dir, 'notes.txt'), team);
		const { edits } = await folder.diff();
		expect(edits).toEqual([{ path: 'notes.txt', content: team }]);
		await overlay.write('notes.txt', team);
		const [change] = await overlay.changes();
		// The folder's copy is the CLI's now and the disk is the user's: what the CLI saw is gone.
		expect(change).toMatchObject({ base: user, baseHash: unkeptHash(user) });
		expect(acceptPlan(change!, root)).toMatchObject({ outcome: 'conflict', reason: 'unseen' });
	});

	it('control: the CLI rewrote the file and the user did not touch it: it applies', async () => {
		const { root, overlay, folder, dir } = await setUp();
		writeFileSync(join(dir, 'notes.txt'), team);
		await folder.diff();
		await overlay.write('notes.txt', team);
		const [change] = await overlay.changes();
		expect(change).toMatchObject({ base: notes, baseHash: sha256(notes) });
		expect(acceptPlan(change!, root)).toMatchObject({ outcome: 'apply', op: { text: team } });
	});
});
