import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deleteRuns, planPrune, type PruneCandidate } from '../../../src/core/runStore/pruneRuns.js';
import { writeRunningMarker } from '../../../src/core/runStore/runningMarker.js';
import { processMark, type ProcessTable } from '../../../src/core/util/processLiveness.js';

const now = new Date('2026-12-01T12:00:00Z');
const noGuards = { pinnedSessions: new Set<string>(), now };

function run(runId: string, daysAgo: number, extra: Partial<PruneCandidate> = {}): PruneCandidate {
	return {
		runId,
		sessionId: runId,
		parentRunId: null,
		startedAt: new Date(now.getTime() - daysAgo * 24 * 3600 * 1000).toISOString(),
		pending: false,
		...extra,
	};
}

describe('planPrune', () => {
	const runs = [run('a', 10), run('b', 5), run('c', 2), run('d', 0.5)];

	it('keeps everything without a policy', () => {
		expect(planPrune(runs, {}, noGuards)).toEqual([]);
	});

	it('count keeps the newest runs; days keeps the recent ones; both: either one deletes', () => {
		expect(planPrune(runs, { count: 2 }, noGuards)).toEqual(['a', 'b']);
		expect(planPrune(runs, { days: 3 }, noGuards)).toEqual(['a', 'b']);
		expect(planPrune(runs, { days: 7 }, noGuards)).toEqual(['a']);
		expect(planPrune(runs, { count: 3, days: 1 }, noGuards)).toEqual(['a', 'b', 'c']);
	});

	it('never deletes a run with pending changes, of a pinned session, or one the caller keeps', () => {
		const guarded = [
			run('pending', 30, { pending: true }),
			run('pinned', 30, { sessionId: 's1' }),
			run('active', 30),
			run('old', 30),
		];
		expect(
			planPrune(
				guarded,
				{ count: 0 },
				{ pinnedSessions: new Set(['s1']), keepRunIds: new Set(['active']), now },
			),
		).toEqual(['old']);
	});

	it('a kept follow-up keeps the turns it continues (across a fork)', () => {
		const chain = [
			run('t1', 20, { sessionId: 's' }),
			run('t2', 19, { sessionId: 's', parentRunId: 't1' }),
			run('fork', 1, { sessionId: 'f', parentRunId: 't1' }),
			run('other', 18),
		];
		expect(planPrune(chain, { days: 7 }, noGuards)).toEqual(['t2', 'other']);
	});
});

describe('deleteRuns', () => {
	let ws: string;
	beforeEach(async () => {
		ws = await mkdtemp(join(tmpdir(), 'massgen-prune-'));
		for (const id of ['r1', 'r2']) {
			await mkdir(join(ws, '.massgen', 'runs', id), { recursive: true });
			await writeFile(join(ws, '.massgen', 'runs', id, 'result.json'), '{}');
		}
	});
	afterEach(async () => {
		await rm(ws, { recursive: true, force: true });
	});

	it('deletes exactly the named run directories', async () => {
		expect(await deleteRuns(ws, ['r1'])).toEqual(['r1']);
		expect(await readdir(join(ws, '.massgen', 'runs'))).toEqual(['r2']);
	});

	it('refuses a name that is not a run id, deleting nothing', async () => {
		await expect(deleteRuns(ws, ['../..'])).rejects.toThrow(/not a run id/);
		await expect(deleteRuns(ws, ['r1/..'])).rejects.toThrow(/not a run id/);
		expect((await readdir(join(ws, '.massgen', 'runs'))).sort()).toEqual(['r1', 'r2']);
	});
});

describe('deleteRuns and runs going on in any process', () => {
	let ws: string;
	const dir = (id: string) => join(ws, '.massgen', 'runs', id);
	/** A finished turn: `result.json` with its session record. */
	async function finished(id: string, parentRunId: string | null = null): Promise<void> {
		await mkdir(dir(id), { recursive: true });
		await writeFile(
			join(dir(id), 'result.json'),
			JSON.stringify({
				runId: id,
				question: 'q',
				status: 'completed',
				winner: null,
				finalAnswer: null,
				answers: [],
				votes: [],
				changes: [],
				usage: [],
				durationMs: 0,
				session: { id: 'line', parentRunId },
			}),
		);
	}
	/** A run going on: no result yet, a marker naming `mark`'s process. */
	async function running(id: string, parentRunId: string | null, mark = processMark()): Promise<void> {
		await mkdir(dir(id), { recursive: true });
		await writeRunningMarker(dir(id), parentRunId, mark);
	}
	const left = async () => (await readdir(join(ws, '.massgen', 'runs'))).sort();
	beforeEach(async () => {
		ws = await mkdtemp(join(tmpdir(), 'massgen-prune-live-'));
	});
	afterEach(async () => {
		await rm(ws, { recursive: true, force: true });
	});

	it('never deletes a live run nor the turns it continues (a follow-up of a follow-up), whatever the plan says', async () => {
		await finished('t1');
		await finished('t2', 't1');
		await running('t3', 't2');
		await finished('other');
		expect(await deleteRuns(ws, ['t1', 't2', 't3', 'other'])).toEqual(['other']);
		expect(await left()).toEqual(['t1', 't2', 't3']);
	});

	it('a planted marker that is a FIFO, a link or not JSON does not stall or mark anything live', async () => {
		await finished('fifo');
		execFileSync('mkfifo', [join(dir('fifo'), 'running.json')]);
		await finished('linked');
		await symlink(join(dir('fifo'), 'running.json'), join(dir('linked'), 'running.json'));
		await finished('garbage');
		await writeFile(join(dir('garbage'), 'running.json'), '{"pid": "1"');
		expect(await deleteRuns(ws, ['fifo', 'linked', 'garbage'])).toEqual(['fifo', 'linked', 'garbage']);
	});

	it('a planted marker naming pid 0 or a negative pid of this host is no live run (kill(0) and kill(-1) reach a group)', async () => {
		const { host } = processMark();
		for (const [id, pid] of [
			['zero', 0],
			['minus', -1],
		] as const) {
			await finished(id);
			await writeFile(join(dir(id), 'running.json'), JSON.stringify({ host, pid, start: null, since: '' }));
		}
		expect(await deleteRuns(ws, ['zero', 'minus'])).toEqual(['zero', 'minus']);
	});

	it('deletes the run of a process that died, and of a pid now held by a later process', async () => {
		const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
		await once(child, 'spawn');
		const dead = processMark(undefined, child.pid!);
		child.kill('SIGKILL');
		await once(child, 'exit');
		await running('crashed', null, dead);
		// The pid runs, but it was started after the marker was written: not the run's process.
		const reused: ProcessTable = { alive: () => true, startOf: () => 'boot:999' };
		await running('reused', null, { host: processMark().host, pid: 4242, start: 'boot:1' });
		// Another host's process cannot be checked: kept.
		await running('elsewhere', null, { host: 'another-host', pid: 4242, start: 'boot:1' });
		expect(await deleteRuns(ws, ['crashed', 'reused', 'elsewhere'], { processes: reused })).toEqual([
			'crashed',
			'reused',
		]);
		expect(await left()).toEqual(['elsewhere']);
	});
});
