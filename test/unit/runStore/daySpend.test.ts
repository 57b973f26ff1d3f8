import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newRunId } from '../../../src/contract/runId.js';
import { runDirOf } from '../../../src/contract/runLayout.js';
import { localDay, spentOnDay } from '../../../src/core/runStore/daySpend.js';
import { recordOwnRun } from '../../../src/core/runStore/ownRuns.js';

let ws: string;
let outside: string;
beforeEach(async () => {
	ws = await mkdtemp(join(tmpdir(), 'massgen-dayspend-'));
	outside = await mkdtemp(join(tmpdir(), 'massgen-dayspend-out-'));
});
afterEach(async () => {
	await rm(ws, { recursive: true, force: true });
	await rm(outside, { recursive: true, force: true });
});

/** The injected clock: 15:00 local time on 3 December 2026, whatever the machine's zone. */
const now = new Date(2026, 11, 3, 15, 0, 0);
let suffix = 0;

/** A run of ours started at `at` (local), its result.json with these agents' costs (null: unpriced). */
async function run(at: Date, costs: readonly (number | null)[] | null, own = true): Promise<string> {
	const id = newRunId(at, () => ((suffix++ % 36) + 0.5) / 36);
	if (own) await recordOwnRun(ws, id);
	const dir = runDirOf(ws, id);
	await mkdir(dir, { recursive: true });
	if (costs) {
		const usage = costs.map((costUsd, i) => ({ agentId: `a${i}`, costUsd }));
		await writeFile(join(dir, 'result.json'), JSON.stringify({ runId: id, usage, changes: [] }));
	}
	return id;
}

describe('spentOnDay', () => {
	it('sums the priced calls of our runs started on the local day, and nothing else', async () => {
		await run(new Date(2026, 11, 3, 0, 0, 1), [0.5, 0.25]);
		await run(new Date(2026, 11, 3, 23, 59, 59), [1]);
		await run(new Date(2026, 11, 3, 9, 0, 0), [0.125, null]);
		// Yesterday's last second, tomorrow's first, a run without a result, one not made here.
		await run(new Date(2026, 11, 2, 23, 59, 59), [100]);
		await run(new Date(2026, 11, 4, 0, 0, 0), [100]);
		await run(new Date(2026, 11, 3, 10, 0, 0), null);
		await run(new Date(2026, 11, 3, 11, 0, 0), [100], false);
		expect(await spentOnDay(ws, now)).toEqual({ usd: 1.875, runs: 3, unpriced: 1 });
	});

	it('leaves out the runs the caller counts live', async () => {
		const live = await run(new Date(2026, 11, 3, 14, 0, 0), [2]);
		await run(new Date(2026, 11, 3, 13, 0, 0), [0.5]);
		expect((await spentOnDay(ws, now, { exclude: new Set([live]) })).usd).toBe(0.5);
	});

	it('a FIFO, a link and torn JSON planted as result.json neither stall nor count', async () => {
		const fifo = await run(new Date(2026, 11, 3, 8, 0, 0), null);
		execFileSync('mkfifo', [join(runDirOf(ws, fifo), 'result.json')]);
		const linked = await run(new Date(2026, 11, 3, 8, 1, 0), null);
		await writeFile(join(outside, 'result.json'), JSON.stringify({ usage: [{ agentId: 'x', costUsd: 50 }] }));
		await symlink(join(outside, 'result.json'), join(runDirOf(ws, linked), 'result.json'));
		const torn = await run(new Date(2026, 11, 3, 8, 2, 0), null);
		await writeFile(join(runDirOf(ws, torn), 'result.json'), '{"usage": [{"costUsd": 7');
		const negative = await run(new Date(2026, 11, 3, 8, 3, 0), [-5, 0.5]);
		expect(negative).toBeTruthy();
		// A plain open of the FIFO would block here until a writer came (the test's timeout).
		expect(await spentOnDay(ws, now)).toEqual({ usd: 0.5, runs: 1, unpriced: 0 });
	});

	it('no runs folder is no spend', async () => {
		expect(await spentOnDay(ws, now)).toEqual({ usd: 0, runs: 0, unpriced: 0 });
	});

	it('the local day runs from midnight to midnight', () => {
		const { start, end } = localDay(now);
		expect(new Date(start)).toEqual(new Date(2026, 11, 3));
		expect(new Date(end)).toEqual(new Date(2026, 11, 4));
	});
});
