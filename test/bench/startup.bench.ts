/**
 * `npm run bench` (first part): how fast the CLI starts. Two figures, each the median of
 * BENCH_STARTUP_RUNS (default 15) spawns of `dist/cli.js` after one warm-up:
 * - `--version`: spawn → exit, beside a bare `node -e 0` (the floor no bundle can beat);
 * - spawn → the first model request the loopback OpenAI Responses server saw, for `run --json`
 *   with BENCH_STARTUP_AGENTS (default 3) agents at 20 ms per call (the run itself is not timed).
 * Targets on the reference machine (2 cores): `--version` ≤ 100 ms, first request ≤ 200 ms.
 * BENCH_CLI=path/to/cli.js measures another build (e.g. an older commit's, from `git archive`).
 */
import { spawnSync } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { relative } from 'node:path';
import { cliPath, runRow } from './realPathRow.js';

const runs = Number(process.env['BENCH_STARTUP_RUNS'] ?? 15);
const agents = Number(process.env['BENCH_STARTUP_AGENTS'] ?? 3);

interface Spread {
	readonly min: number;
	readonly median: number;
	readonly max: number;
}

function spread(values: readonly number[]): Spread {
	const sorted = [...values].sort((a, b) => a - b);
	return { min: sorted[0]!, median: sorted[Math.floor(sorted.length / 2)]!, max: sorted.at(-1)! };
}

/** Spawn → exit of `node ...args`, in milliseconds; throws unless it exits 0. */
function timeSpawn(args: readonly string[]): number {
	const started = performance.now();
	const result = spawnSync(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
	const ms = performance.now() - started;
	if (result.status !== 0) throw new Error(`node ${args.join(' ')} exited ${result.status}`);
	return ms;
}

/** Warm-up, then `runs` samples of one figure, interleaved with the floor so drift hits both alike. */
function versionFigures(): { version: Spread; floor: Spread } {
	timeSpawn([cliPath, '--version']);
	timeSpawn(['-e', '0']);
	const version: number[] = [];
	const floor: number[] = [];
	for (let i = 0; i < runs; i++) {
		version.push(timeSpawn([cliPath, '--version']));
		floor.push(timeSpawn(['-e', '0']));
	}
	return { version: spread(version), floor: spread(floor) };
}

/**
 * Spawn → first request, with the compile cache (warm: the first run writes it) and without it
 * (`NODE_DISABLE_COMPILE_CACHE=1`), in turn so that the machine's drift hits both alike.
 */
async function firstRequest(): Promise<{ cached: Spread; uncached: Spread }> {
	const spec = {
		label: 'start-up',
		protocols: ['responses'],
		agents,
		latencyMs: 20,
		skew: 0,
		style: 'text-first',
		script: 'converge',
	} as const;
	const once = async (env: NodeJS.ProcessEnv) => {
		const row = await runRow(spec, { env });
		if (row.status !== 'completed') throw new Error(`start-up run ended ${row.status}`);
		return row.startupMs;
	};
	const off = { NODE_DISABLE_COMPILE_CACHE: '1' };
	await once({});
	await once(off);
	const cached: number[] = [];
	const uncached: number[] = [];
	for (let i = 0; i < runs; i++) {
		cached.push(await once({}));
		uncached.push(await once(off));
	}
	return { cached: spread(cached), uncached: spread(uncached) };
}

const show = (s: Spread) => `${s.median.toFixed(0)} ms (min ${s.min.toFixed(0)}, max ${s.max.toFixed(0)})`;

async function main() {
	const loadBefore = loadavg()[0]!;
	const { version, floor } = versionFigures();
	const request = await firstRequest();
	const conditions = {
		cli: relative(process.cwd(), cliPath),
		node: process.version,
		cores: availableParallelism(),
		runs,
		agents,
		loadBefore: Number(loadBefore.toFixed(2)),
		loadAfter: Number(loadavg()[0]!.toFixed(2)),
	};
	if (process.argv.includes('--json')) {
		process.stdout.write(
			`${JSON.stringify({ conditions, version, floor, firstRequest: request }, null, 2)}\n`,
		);
		return;
	}
	process.stdout.write(
		[
			`Start-up of ${conditions.cli} (node ${conditions.node}, ${conditions.cores} cores, median of ${runs};` +
				` load average ${conditions.loadBefore} → ${conditions.loadAfter})`,
			'',
			`| figure | median (min, max) | target |`,
			`| --- | --- | --- |`,
			`| \`--version\`, spawn → exit | ${show(version)} | ≤ 100 ms |`,
			`| \`node -e 0\` (floor) | ${show(floor)} | — |`,
			`| \`run --json\`, spawn → first model request (${agents} agents, Responses) | ${show(request.cached)} | ≤ 200 ms |`,
			`| the same without the compile cache | ${show(request.uncached)} | — |`,
			'',
		].join('\n'),
	);
}

void main();
