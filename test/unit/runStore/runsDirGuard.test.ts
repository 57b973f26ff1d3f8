/**
 * A repository that ships `.massgen` (or `.massgen/runs`) as a link to another folder: no run
 * directory is written there, no old run read from there, and pruning deletes nothing there.
 * Control: the same operations on real folders work.
 */
import { mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listRuns } from '../../../src/core/runStore/listRuns.js';
import { deleteRuns } from '../../../src/core/runStore/pruneRuns.js';
import { RunLogWriter } from '../../../src/core/runStore/runLog.js';
import { RunsDirError } from '../../../src/core/runStore/runsDirGuard.js';
import { SessionError } from '../../../src/core/sessions/historyOf.js';
import { readSessions, readTurn } from '../../../src/core/sessions/readSessions.js';
import { readRunReport } from '../../../src/core/sessions/runReport.js';

const runId = '20260101-000000-abcd';
const folder = (prefix: string) => mkdtempSync(join(tmpdir(), prefix));

/** Someone else's folder holding what looks like a run directory (`runs/<id>/keep.txt`). */
function elsewhere(): string {
	const dir = folder('massgen-elsewhere-');
	mkdirSync(join(dir, 'runs', runId), { recursive: true });
	writeFileSync(join(dir, 'runs', runId, 'keep.txt'), 'not yours\n');
	writeFileSync(join(dir, 'runs', runId, 'result.json'), '{}');
	return dir;
}

const tree = (dir: string) => readdirSync(dir, { recursive: true }).map(String).sort();

describe.each([
	['.massgen', (root: string, target: string) => symlinkSync(target, join(root, '.massgen'))],
	[
		'.massgen/runs',
		(root: string, target: string) => {
			mkdirSync(join(root, '.massgen'));
			symlinkSync(join(target, 'runs'), join(root, '.massgen', 'runs'));
		},
	],
])('%s as a link to another folder', (_, link) => {
	function linked() {
		const root = folder('massgen-ws-');
		const target = elsewhere();
		link(root, target);
		return { root, target, before: tree(target) };
	}

	it('is refused for writing a run, pruning, listing and reading runs; the other folder is unchanged', async () => {
		const { root, target, before } = linked();
		await expect(RunLogWriter.create(root, '20260101-000001-abcd')).rejects.toThrow(RunsDirError);
		await expect(RunLogWriter.create(root, '20260101-000001-abcd')).rejects.toThrow(
			/is a link \(to .*\): run directories are kept only inside the workspace/,
		);
		await expect(deleteRuns(root, [runId])).rejects.toThrow(RunsDirError);
		await expect(listRuns(root)).rejects.toThrow(RunsDirError);
		await expect(readSessions(root)).rejects.toThrow(RunsDirError);
		await expect(readRunReport(root, runId)).rejects.toThrow(SessionError);
		expect(tree(target)).toEqual(before);
	});
});

describe('run folders that are real (control)', () => {
	it('are written, listed and pruned; a run folder that is itself a link is removed as a link only', async () => {
		const root = folder('massgen-ws-');
		const log = await RunLogWriter.create(root, runId);
		await log.close();
		expect(readdirSync(join(root, '.massgen', 'runs'))).toEqual([runId]);

		const target = elsewhere();
		const before = tree(target);
		symlinkSync(join(target, 'runs', runId), join(root, '.massgen', 'runs', '20260101-000002-abcd'));
		expect(await deleteRuns(root, [runId, '20260101-000002-abcd'])).toHaveLength(2);
		expect(readdirSync(join(root, '.massgen', 'runs'))).toEqual([]);
		expect(tree(target)).toEqual(before);
	});

	it('a run folder that is a link is not read: show refuses it, the sessions skip it with the reason', async () => {
		const root = folder('massgen-ws-');
		mkdirSync(join(root, '.massgen', 'runs'), { recursive: true });
		const target = elsewhere();
		symlinkSync(join(target, 'runs', runId), join(root, '.massgen', 'runs', runId));
		await expect(readRunReport(root, runId)).rejects.toThrow(/is a link/);
		expect(await readTurn(root, runId, new Set([runId]))).toEqual({
			runId,
			reason: expect.stringMatching(/is a link/),
		});
		expect((await readSessions(root)).sessions).toEqual([]);
	});

	it('a .massgen that is a file is refused with what to do', async () => {
		const root = folder('massgen-ws-');
		writeFileSync(join(root, '.massgen'), 'x');
		await expect(RunLogWriter.create(root, runId)).rejects.toThrow(/is not a folder/);
	});
});
