/**
 * What this workspace's finished runs spent on one local calendar day, for `massgen.maxCostUsdPerDay`:
 * the runs this machine made (`ownRuns.ts`: a cloned repository's runs neither count nor block),
 * started that day (by the run id's time), summed from their `result.json` usage. Each file is read
 * as the listings read them: never through a link (`lstat` first), never a FIFO or a device
 * (`readRegularFile`), at most `maxUsageBytes`; a run without a readable result (still running in
 * another process, or killed) counts nothing.
 */
import { lstat, readdir } from 'node:fs/promises';
import { runDirOf, runFile, runsDir } from '../../contract/runLayout.js';
import { isSafeRunId, runIdDate } from '../../contract/runId.js';
import { readRegularFile } from '../util/regularFile.js';
import { readOwnRuns } from './ownRuns.js';
import { maxResultBytes } from './readResult.js';
import { resultUsageSchema } from './runSchemas.js';
import { assertRunsDirInside } from './runsDirGuard.js';

export interface DaySpend {
	/** USD of the priced calls. */
	readonly usd: number;
	/** Runs counted (a readable result). */
	readonly runs: number;
	/** Of those, runs with an agent whose calls had no known price (not in `usd`). */
	readonly unpriced: number;
}

/** The local calendar day holding `now`: [midnight, next midnight). */
export function localDay(now: Date): { readonly start: number; readonly end: number } {
	const start = new Date(now.getFullYear(), now.getMonth(), now.getDate());
	const end = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1);
	return { start: start.getTime(), end: end.getTime() };
}

/**
 * The spend of the runs started on `now`'s local day, leaving out `exclude` (runs the caller counts
 * live). One result read at a time, only of that day's runs.
 */
export async function spentOnDay(
	workspaceRoot: string,
	now: Date,
	options: { readonly exclude?: ReadonlySet<string>; readonly env?: NodeJS.ProcessEnv } = {},
): Promise<DaySpend> {
	const root = runsDir(workspaceRoot);
	let names: string[];
	try {
		await assertRunsDirInside(workspaceRoot);
		names = (await readdir(root, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { usd: 0, runs: 0, unpriced: 0 };
		throw error;
	}
	const { start, end } = localDay(now);
	const own = await readOwnRuns(workspaceRoot, options.env);
	const today = names.filter((name) => {
		const started = isSafeRunId(name) && own.has(name) && !options.exclude?.has(name) && runIdDate(name);
		return started && started.getTime() >= start && started.getTime() < end;
	});
	let usd = 0;
	let runs = 0;
	let unpriced = 0;
	for (const name of today) {
		const costs = await readUsageCosts(runFile(runDirOf(workspaceRoot, name), 'result'));
		if (costs === null) continue;
		runs += 1;
		if (costs.some((cost) => cost === null)) unpriced += 1;
		for (const cost of costs) if (cost !== null && Number.isFinite(cost) && cost > 0) usd += cost;
	}
	return { usd, runs, unpriced };
}

/** Each agent's cost in a result file (null: no known price); null when it is not a readable result. */
async function readUsageCosts(file: string): Promise<(number | null)[] | null> {
	try {
		if (!(await lstat(file)).isFile()) return null;
		const { bytes, size } = await readRegularFile(file, maxResultBytes);
		if (size > maxResultBytes) return null;
		const parsed = resultUsageSchema.safeParse(JSON.parse(bytes.toString('utf8')));
		return parsed.success ? parsed.data.usage.map((usage) => usage.costUsd ?? null) : null;
	} catch {
		return null;
	}
}
