/**
 * A run's folder is its own: made exclusively, with a fresh id when the first is taken (two
 * processes starting in one second with one random suffix), never a folder that came with the
 * repository (and never recorded as ours), and marked running until the log closes.
 */
import { mkdir, readdir, readFile, stat, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readOwnRuns } from '../../../src/core/runStore/ownRuns.js';
import { readRunningMarker } from '../../../src/core/runStore/runningMarker.js';
import { RunDirTakenError, RunLogWriter } from '../../../src/core/runStore/runLog.js';
import { newRunId } from '../../../src/contract/runId.js';
import { hostProcesses } from '../../../src/core/util/processLiveness.js';
import { makeTree } from '../../support/tempTree.js';

const second = new Date('2026-12-03T05:00:00Z');
/** Run ids of one second whose first draw is suffix `0000`, every later one `iiii`. */
function idsClashingOnce(): () => string {
	let calls = 0;
	const random = () => (calls++ < 4 ? 0 : 0.5);
	return () => newRunId(second, random);
}
const runs = (root: string) => join(root, '.massgen', 'runs');

describe('RunLogWriter.create claims a folder of its own', () => {
	it('two runs of one second that draw one suffix get two folders: the second draws again', async () => {
		const root = await makeTree();
		const env = { XDG_STATE_HOME: await makeTree() };
		const clashing = newRunId(second, () => 0);
		// Both start together, and both first draw the same id: one takes it, the other the next free one.
		const [a, b] = await Promise.all([
			RunLogWriter.create(root, idsClashingOnce(), { env }),
			RunLogWriter.create(root, idsClashingOnce(), { env }),
		]);
		expect(new Set([a.runId, b.runId])).toEqual(new Set([clashing, '20261203-050000-iiii']));
		a.append({ type: 'notice', source: 'run', message: 'from a', t: 1 } as never);
		b.append({ type: 'notice', source: 'run', message: 'from b', t: 1 } as never);
		await Promise.all([a.close(), b.close()]);
		expect((await readdir(runs(root))).sort()).toEqual([a.runId, b.runId].sort());
		expect(await readFile(join(a.runDir, 'events.jsonl'), 'utf8')).toContain('from a');
		expect(await readFile(join(a.runDir, 'events.jsonl'), 'utf8')).not.toContain('from b');
		expect(await readFile(join(b.runDir, 'events.jsonl'), 'utf8')).toContain('from b');
		expect(await readOwnRuns(root, env)).toEqual(new Set([a.runId, b.runId]));
	});

	it('a folder that is there already (planted, or a link) is skipped and never recorded as ours', async () => {
		const root = await makeTree();
		const env = { XDG_STATE_HOME: await makeTree() };
		const ids = ['20261203-050000-aaaa', '20261203-050000-bbbb', '20261203-050000-cccc'];
		await mkdir(join(runs(root), ids[0]!), { recursive: true });
		await symlink('/nonexistent', join(runs(root), ids[1]!));
		const log = await RunLogWriter.create(root, () => ids.shift()!, { env });
		await log.close();
		expect(log.runId).toBe('20261203-050000-cccc');
		expect(await readOwnRuns(root, env)).toEqual(new Set(['20261203-050000-cccc']));
	});

	it('a given id whose folder exists fails without touching it; a source that never frees one gives up', async () => {
		const root = await makeTree();
		const env = { XDG_STATE_HOME: await makeTree() };
		const id = '20261203-050000-aaaa';
		await mkdir(join(runs(root), id), { recursive: true });
		await expect(RunLogWriter.create(root, id, { env })).rejects.toBeInstanceOf(RunDirTakenError);
		await expect(RunLogWriter.create(root, () => id, { env })).rejects.toThrow(/No free run id .* 16 tries/);
		expect(await readdir(join(runs(root), id))).toEqual([]);
		expect(await readOwnRuns(root, env)).toEqual(new Set());
	});

	it('is marked running by this process (pid and start) until its log closes, with the turn it continues', async () => {
		const root = await makeTree();
		const env = { XDG_STATE_HOME: await makeTree() };
		const log = await RunLogWriter.create(root, '20261203-050000-aaaa', {
			env,
			parentRunId: '20261203-040000-zzzz',
		});
		const marker = await readRunningMarker(log.runDir);
		expect(marker).toMatchObject({
			pid: process.pid,
			start: hostProcesses.startOf(process.pid),
			parentRunId: '20261203-040000-zzzz',
		});
		expect((await stat(join(log.runDir, 'running.json'))).mode & 0o777).toBe(0o600);
		await log.close();
		expect(await readRunningMarker(log.runDir)).toBeNull();
	});
});
