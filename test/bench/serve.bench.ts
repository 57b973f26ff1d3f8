/**
 * `npm run bench` (serve part): what `massgen serve` adds over a plain `massgen run` on the same
 * loopback team (the four protocols' servers, auto-agents, no latency: the run is all overhead).
 * Median of BENCH_SERVE_RUNS (default 9), after one warm-up of each, interleaved so drift hits all:
 * - `run --json`: spawn → the first event line on stdout, spawn → exit;
 * - `serve`, `stream: true`: request → the first SSE byte (the role chunk, sent at `run-start`),
 *   request → `data: [DONE]`; the server was started once, before;
 * - `serve`, no stream: request → the whole response.
 * BENCH_CLI=path/to/cli.js measures another build.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { startLoopbackTeam } from '../servers/loopbackTeam.js';
import { startServe } from '../integration/cli/serveProcess.js';
import { cliPath } from './realPathRow.js';

const runs = Number(process.env['BENCH_SERVE_RUNS'] ?? 9);

interface Timing {
	readonly firstByteMs: number;
	readonly totalMs: number;
}

/** `massgen run --json`: spawn → first stdout byte, spawn → exit. */
function timeRun(root: string, config: string, env: NodeJS.ProcessEnv): Promise<Timing> {
	return new Promise((resolve, reject) => {
		const started = performance.now();
		let firstByteMs: number | undefined;
		const child = spawn(process.execPath, [cliPath, 'run', '--json', '--config', config, 'What is 2 + 2?'], {
			cwd: root,
			env: { PATH: process.env['PATH'], ...env },
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		child.stdout.on('data', () => (firstByteMs ??= performance.now() - started));
		child.stderr.resume();
		child.on('error', reject);
		child.on('close', (code) => {
			if (code !== 0 || firstByteMs === undefined) reject(new Error(`massgen run exited ${code}`));
			else resolve({ firstByteMs, totalMs: performance.now() - started });
		});
	});
}

/** One chat completion against the running server: request → first body byte, → end. */
async function timeServe(origin: string, stream: boolean): Promise<Timing> {
	const started = performance.now();
	const response = await fetch(`${origin}/v1/chat/completions`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({
			model: 'massgen/team',
			stream,
			messages: [{ role: 'user', content: 'What is 2 + 2?' }],
		}),
	});
	if (!response.ok || !response.body) {
		throw new Error(`serve answered ${response.status}: ${await response.text()}`);
	}
	let firstByteMs: number | undefined;
	let text = '';
	const decoder = new TextDecoder();
	for await (const piece of response.body) {
		firstByteMs ??= performance.now() - started;
		text += decoder.decode(piece as Uint8Array, { stream: true });
	}
	if (stream && !text.endsWith('data: [DONE]\n\n')) throw new Error('the stream did not end with [DONE]');
	return { firstByteMs: firstByteMs ?? 0, totalMs: performance.now() - started };
}

const median = (values: readonly number[]) =>
	[...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main() {
	const loadBefore = loadavg()[0]!;
	const team = await startLoopbackTeam({ auto: {} });
	const configDir = mkdtempSync(join(tmpdir(), 'massgen-bench-serve-'));
	const config = join(configDir, 'team.yaml');
	writeFileSync(config, team.configYaml());
	const root = mkdtempSync(join(tmpdir(), 'massgen-bench-ws-'));
	const env = { HOME: mkdtempSync(join(tmpdir(), 'massgen-bench-home-')) };
	const serve = await startServe(['--config', config], { cwd: root, env });
	const samples = { run: [] as Timing[], stream: [] as Timing[], whole: [] as Timing[] };
	try {
		for (let i = 0; i <= runs; i++) {
			const run = await timeRun(root, config, env);
			const stream = await timeServe(serve.origin, true);
			const whole = await timeServe(serve.origin, false);
			// The first round warms the compile cache and the server's modules: not counted.
			if (i === 0) continue;
			samples.run.push(run);
			samples.stream.push(stream);
			samples.whole.push(whole);
		}
	} finally {
		await serve.stop();
		await team.close();
	}
	const figures = Object.fromEntries(
		Object.entries(samples).map(([name, timings]) => [
			name,
			{
				firstByteMs: median(timings.map((t) => t.firstByteMs)),
				totalMs: median(timings.map((t) => t.totalMs)),
			},
		]),
	) as Record<keyof typeof samples, Timing>;
	const conditions = {
		cli: relative(process.cwd(), cliPath),
		node: process.version,
		cores: availableParallelism(),
		runs,
		loadBefore: Number(loadBefore.toFixed(2)),
		loadAfter: Number(loadavg()[0]!.toFixed(2)),
	};
	if (process.argv.includes('--json')) {
		process.stdout.write(`${JSON.stringify({ conditions, figures }, null, 2)}\n`);
		return;
	}
	const ms = (value: number) => `${value.toFixed(0)} ms`;
	const over = (value: number, base: number) => `${value >= base ? '+' : ''}${(value - base).toFixed(0)} ms`;
	const { run, stream, whole } = figures;
	process.stdout.write(
		[
			`massgen serve over massgen run, 4-agent loopback team, no model latency (${conditions.cli}, node ${conditions.node},` +
				` ${conditions.cores} cores, median of ${runs}; load average ${conditions.loadBefore} → ${conditions.loadAfter})`,
			'',
			'| path | first byte | total | total over `run` |',
			'| --- | --- | --- | --- |',
			`| \`run --json\` (spawn → first event line, → exit) | ${ms(run.firstByteMs)} | ${ms(run.totalMs)} | — |`,
			`| \`serve\`, stream (request → role chunk, → [DONE]) | ${ms(stream.firstByteMs)} | ${ms(stream.totalMs)} | ${over(stream.totalMs, run.totalMs)} |`,
			`| \`serve\`, no stream (request → response) | ${ms(whole.firstByteMs)} | ${ms(whole.totalMs)} | ${over(whole.totalMs, run.totalMs)} |`,
			'',
		].join('\n'),
	);
}

void main().catch((error: unknown) => {
	process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
	process.exitCode = 1;
});
