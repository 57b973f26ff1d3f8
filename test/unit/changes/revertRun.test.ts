import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readChangeOutcome, recordFile } from '../../../src/core/changes/acceptRecord.js';
import { appendChangeLog, readChangeLog } from '../../../src/core/runStore/changeLog.js';
import { applyChangeSet } from '../../../src/core/changes/applyChangeSet.js';
import { planRevertFile, revertRunOnDisk, revertTargets } from '../../../src/core/changes/revertRun.js';
import { recordOwnRun } from '../../../src/core/runStore/ownRuns.js';
import { sha256 } from '../../../src/core/workspace/sha256.js';
import type { FileChange } from '../../../src/contract/fileChange.js';
import { makeWorkspaceDir } from '../../fakes/team.js';

const before = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\n';
const after = before.replace('two', 'TWO');

describe('planRevertFile (undoing one recorded write)', () => {
	const recorded = recordFile('a.txt', before, after);

	it('restores the text before when the file is still what the accept wrote', () => {
		expect(planRevertFile(recorded, after)).toEqual({
			path: 'a.txt',
			outcome: 'apply',
			op: { kind: 'write', text: before, create: false },
		});
	});

	it("reverses only the team's hunk when the user edited elsewhere since", () => {
		const edited = after.replace('six', 'SIX');
		expect(planRevertFile(recorded, edited)).toMatchObject({
			outcome: 'merged',
			op: { kind: 'write', text: before.replace('six', 'SIX') },
		});
	});

	it("is a conflict with markers when the user's edit overlaps the team's hunk", () => {
		const plan = planRevertFile(recorded, after.replace('TWO', 'Two!'), {
			ours: 'mine',
			theirs: 'revert',
		});
		expect(plan).toMatchObject({ outcome: 'conflict', reason: 'overlap', conflicts: 1 });
		const text = plan.outcome === 'conflict' && plan.resolution?.kind === 'write' ? plan.resolution.text : '';
		expect(text).toBe(
			'one\n<<<<<<< mine\nTwo!\n=======\ntwo\n>>>>>>> revert\nthree\nfour\nfive\nsix\nseven\n',
		);
	});

	it('deletes a file the accept created, unless the user changed it since', () => {
		const created = recordFile('new.txt', null, 'bee\n');
		expect(planRevertFile(created, 'bee\n')).toEqual({
			path: 'new.txt',
			outcome: 'apply',
			op: { kind: 'delete' },
		});
		expect(planRevertFile(created, 'bee\nmore\n')).toMatchObject({ outcome: 'conflict', reason: 'modified' });
		expect(planRevertFile(created, null)).toEqual({ path: 'new.txt', outcome: 'already' });
	});

	it('recreates a file the accept deleted', () => {
		const deleted = recordFile('gone.txt', 'bye\n', null);
		expect(planRevertFile(deleted, null)).toEqual({
			path: 'gone.txt',
			outcome: 'apply',
			op: { kind: 'write', text: 'bye\n', create: true },
		});
		expect(planRevertFile(deleted, 'other\n')).toMatchObject({ outcome: 'conflict', reason: 'exists' });
	});

	it('cannot restore a file recorded by hash only (over the cap), unless it already is the old text', () => {
		const big = recordFile('big.txt', 'x'.repeat(20), 'y'.repeat(20), 10);
		expect(planRevertFile(big, 'y'.repeat(20))).toMatchObject({ outcome: 'conflict', reason: 'too-large' });
		expect(planRevertFile(big, 'x'.repeat(20))).toEqual({ path: 'big.txt', outcome: 'already' });
	});
});

describe('revertTargets', () => {
	it('reverts what is applied; once everything is reverted, re-applies (undoes the revert)', () => {
		const accept = recordFile('a', 'x', 'y');
		const undo = recordFile('a', 'y', 'x');
		const at = '2026-01-01T00:00:00.000Z';
		expect(revertTargets([])).toBeNull();
		expect(revertTargets([{ kind: 'accept', at, by: 'cli', partial: false, files: [accept] }])).toEqual({
			mode: 'revert',
			files: [accept],
		});
		expect(
			revertTargets([
				{ kind: 'accept', at, by: 'cli', partial: false, files: [accept] },
				{ kind: 'revert', at, by: 'cli', mode: 'revert', files: [undo] },
			]),
		).toEqual({ mode: 'reapply', files: [undo] });
	});
});

describe('revertRunOnDisk (the CLI revert)', () => {
	async function accepted() {
		const root = makeWorkspaceDir({ 'a.txt': before, 'gone.txt': 'bye\n', 'other.txt': 'keep\n' });
		const runDir = mkdtempSync(join(tmpdir(), 'massgen-run-'));
		// The revert refuses runs this machine did not make (RunLogWriter.create records them).
		await recordOwnRun(root, 'r1');
		const changes: FileChange[] = [
			{ path: 'a.txt', kind: 'modify', baseHash: sha256(before), base: before, content: after },
			{ path: 'new/b.txt', kind: 'add', baseHash: null, base: null, content: 'bee\n' },
			{ path: 'gone.txt', kind: 'delete', baseHash: sha256('bye\n'), base: 'bye\n', content: null },
		];
		return { root, runDir, changes };
	}
	const read = (root: string, path: string) =>
		existsSync(join(root, path)) ? readFileSync(join(root, path), 'utf8') : null;

	it("undoes the accept around the user's later edit, and a second revert re-applies it", async () => {
		const { root, runDir, changes } = await accepted();
		await applyChangeSet(root, 'r1', changes, { record: { runDir, by: 'cli' } });
		writeFileSync(join(root, 'a.txt'), after.replace('six', 'SIX'));
		const result = await revertRunOnDisk(root, runDir, { runId: 'r1', by: 'cli' });
		expect(result).toMatchObject({ status: 'reverted', mode: 'revert', merged: ['a.txt'] });
		expect(read(root, 'a.txt')).toBe(before.replace('six', 'SIX'));
		expect(read(root, 'new/b.txt')).toBeNull();
		expect(read(root, 'gone.txt')).toBe('bye\n');
		expect(read(root, 'other.txt')).toBe('keep\n');
		expect(await readChangeOutcome(runDir)).toBe('reverted');

		const again = await revertRunOnDisk(root, runDir, { runId: 'r1', by: 'cli' });
		expect(again).toMatchObject({ status: 'reverted', mode: 'reapply' });
		expect(read(root, 'a.txt')).toBe(after.replace('six', 'SIX'));
		expect(read(root, 'new/b.txt')).toBe('bee\n');
		expect(read(root, 'gone.txt')).toBeNull();
		expect((await readChangeLog(runDir)).map((entry) => entry.kind)).toEqual(['accept', 'revert', 'revert']);
	});

	it('writes nothing on a conflict; with markers it writes them and reverts the rest', async () => {
		const { root, runDir, changes } = await accepted();
		await applyChangeSet(root, 'r1', changes, { record: { runDir, by: 'cli' } });
		const clash = after.replace('TWO', 'Two!');
		writeFileSync(join(root, 'a.txt'), clash);
		const result = await revertRunOnDisk(root, runDir, { runId: 'r1', by: 'cli' });
		expect(result.status).toBe('conflicts');
		expect(result.conflicts.map((conflict) => conflict.path)).toEqual(['a.txt']);
		expect([read(root, 'a.txt'), read(root, 'new/b.txt'), read(root, 'gone.txt')]).toEqual([
			clash,
			'bee\n',
			null,
		]);
		expect(await readChangeLog(runDir)).toHaveLength(1);

		const marked = await revertRunOnDisk(root, runDir, { runId: 'r1', by: 'cli', markers: true });
		expect(marked).toMatchObject({ status: 'reverted', marked: ['a.txt'] });
		expect(read(root, 'a.txt')).toContain(
			'<<<<<<< Current (your edits)\nTwo!\n=======\ntwo\n>>>>>>> Revert of MassGen run r1\n',
		);
		expect([read(root, 'new/b.txt'), read(root, 'gone.txt')]).toEqual([null, 'bye\n']);
	});

	it('has nothing to revert without a recorded accept', async () => {
		const { root, runDir } = await accepted();
		await appendChangeLog(runDir, { kind: 'reject', by: 'editor', paths: ['a.txt'] });
		expect((await revertRunOnDisk(root, runDir, { runId: 'r1', by: 'cli' })).status).toBe('none');
		expect(read(root, 'a.txt')).toBe(before);
	});
});
