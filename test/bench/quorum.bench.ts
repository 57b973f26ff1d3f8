/**
 * `npm run bench` (last part): what a quorum saves on the path users take. `dist/cli.js run --json`
 * against the loopback chat server, five agents of which two are slow (every call), with quorum
 * off, `majority` and 3 (presentations take the fast time whoever wins): wall time, requests the server saw, calls the client closed, and input
 * tokens from result.json. Prints a Markdown table (JSON with `--json`).
 *
 * BENCH_QUORUM_FAST_MS (default 600), BENCH_QUORUM_SLOW_MS (default 3000), BENCH_REPEATS (default 3).
 */
import { runRow, type RowResult, type RowSpec } from './realPathRow.js';

const fast = Number(process.env['BENCH_QUORUM_FAST_MS'] ?? 600);
const slow = Number(process.env['BENCH_QUORUM_SLOW_MS'] ?? 3_000);
const repeats = Number(process.env['BENCH_REPEATS'] ?? 3);

const base: RowSpec = {
	label: 'quorum off',
	protocols: ['chat'],
	agents: 5,
	latencyMs: fast,
	skew: 0,
	style: 'text-first',
	script: 'converge',
	latencies: [fast, fast, fast, slow, slow],
	// Whoever wins (the anonymous order is shuffled), presenting takes the same time.
	presentationMs: fast,
};
const rows: RowSpec[] = [
	base,
	{ ...base, label: 'quorum: majority', quorum: 'majority' },
	{ ...base, label: 'quorum: 3', quorum: 3 },
];

async function median(spec: RowSpec): Promise<RowResult> {
	const runs: RowResult[] = [];
	for (let i = 0; i < repeats; i++) runs.push(await runRow(spec));
	return runs.sort((a, b) => a.wallMs - b.wallMs)[Math.floor(runs.length / 2)]!;
}

async function main(): Promise<void> {
	const results: RowResult[] = [];
	for (const spec of rows) results.push(await median(spec));
	if (process.argv.includes('--json')) {
		console.log(
			JSON.stringify(
				results.map(({ timeline: _, ...row }) => row),
				null,
				2,
			),
		);
		return;
	}
	const off = results[0]!;
	console.log(
		`\nQuorum: 5 agents (3 × ${fast} ms, 2 × ${slow} ms per call), chat protocol, median of ${repeats}\n`,
	);
	console.log('| row | status | wall | vs off | requests | closed by the client | input tokens |');
	console.log('| --- | --- | --- | --- | --- | --- | --- |');
	for (const row of results) {
		const ratio = row === off ? '—' : `${Math.round((row.wallMs / off.wallMs) * 100)} %`;
		console.log(
			`| ${row.spec.label} | ${row.status} | ${Math.round(row.wallMs)} ms | ${ratio} | ${row.requests} | ${row.aborted} | ${row.inputTokens} |`,
		);
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
