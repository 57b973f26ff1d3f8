/**
 * `npm run bench`: how close a run comes to the protocol's critical path, and what the
 * orchestrator costs per event. Prints JSON on stdout.
 *
 * With a scripted model of fixed latency L, the shortest possible run is answer → vote →
 * presentation = 3L. `ratio` = wall time / 3L (1.00 is perfect; the target is ≤ 1.05 from 3 to 16 agents).
 */
import { runOnce } from './inProcessRun.js';

const latencyMs = Number(process.env['BENCH_LATENCY_MS'] ?? 200);
const repeats = Number(process.env['BENCH_REPEATS'] ?? 3);

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)]!;
}

async function main() {
	await runOnce(3, 5, 4); // warm up the JIT and module loading
	const criticalPath = [];
	for (const agents of [3, 8, 16]) {
		const runs = [];
		for (let i = 0; i < repeats; i++) runs.push(await runOnce(agents, latencyMs, 40));
		const wall = median(runs.map((r) => r.wallMs));
		criticalPath.push({
			agents,
			latencyMs,
			wallMs: Math.round(wall),
			ratio: Number((wall / (3 * latencyMs)).toFixed(3)),
			events: runs[0]!.events,
			cpuMsPer1000Events: Number(((median(runs.map((r) => r.cpuMs)) / runs[0]!.events) * 1000).toFixed(1)),
		});
	}
	// CPU cost with no waiting at all: 16 agents streaming long answers as fast as possible.
	const stress = await runOnce(16, 0, 2_000);
	const output = {
		node: process.version,
		criticalPath,
		cpuOnly: {
			agents: 16,
			events: stress.events,
			cpuMs: Math.round(stress.cpuMs),
			cpuMsPer1000Events: Number(((stress.cpuMs / stress.events) * 1000).toFixed(2)),
		},
	};
	process.stdout.write(`${JSON.stringify(output, null, 2)}\n`);
}

void main();
