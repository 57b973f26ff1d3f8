/**
 * `npm run bench` (second part): the path users take. Spawns `dist/cli.js run --json` against the
 * loopback wire servers of all four protocols (official SDKs inside the CLI) with per-agent latencies,
 * and reports wall time against the protocol's critical path, requests, aborted calls, prompt and
 * tool-schema bytes and tokens, from the servers' own request logs and the run's result.json.
 * Prints a Markdown table (JSON with `--json`).
 *
 * Subsets: BENCH_PROTOCOLS=chat,openai,claude,gemini  BENCH_AGENTS=3,8,16
 * BENCH_ROWS=inprocess,equal,skew,fast,style,revise,mixed  BENCH_REPEATS=1 (median of n runs)
 * BENCH_CLI=path/to/cli.js (default dist/cli.js: run `npm run build:cli` first).
 */
import { loadavg } from 'node:os';
import { relative } from 'node:path';
import type { LoopbackProtocol } from '../servers/loopbackProvider.js';
import { runOnce } from './inProcessRun.js';
import { backendTypes, cliPath, runRow, type RowResult, type RowSpec } from './realPathRow.js';

const aliases: Record<string, LoopbackProtocol> = {
	openai: 'responses',
	responses: 'responses',
	chat: 'chat',
	chatcompletion: 'chat',
	claude: 'anthropic',
	anthropic: 'anthropic',
	gemini: 'gemini',
};
const list = (name: string, fallback: string) =>
	(process.env[name] ?? fallback)
		.split(',')
		.map((s) => s.trim())
		.filter(Boolean);

const protocols = list('BENCH_PROTOCOLS', 'responses,chat,anthropic,gemini').map((p) => {
	const protocol = aliases[p];
	if (!protocol) {
		throw new Error(`BENCH_PROTOCOLS: unknown protocol ${p} (use ${Object.keys(aliases).join(', ')})`);
	}
	return protocol;
});
const sizes = list('BENCH_AGENTS', '3,8,16').map(Number);
const rows = new Set(list('BENCH_ROWS', 'inprocess,equal,skew,fast,style,revise,mixed'));
const repeats = Number(process.env['BENCH_REPEATS'] ?? 1);
/** Variant rows (skew, fast, styles, mixed) run at 8 agents, or the one size asked for. */
const variantSize = sizes.includes(8) ? 8 : sizes[0]!;

function specs(): RowSpec[] {
	const out: RowSpec[] = [];
	const base = { latencyMs: 400, skew: 0, style: 'text-first', script: 'converge' } as const;
	for (const protocol of protocols) {
		const one = { ...base, protocols: [protocol] };
		if (rows.has('equal')) for (const agents of sizes) out.push({ ...one, agents, label: 'equal 400 ms' });
		if (rows.has('skew')) {
			out.push({ ...one, agents: variantSize, skew: 0.25, label: 'skew ±25 %' });
			out.push({ ...one, agents: variantSize, skew: 0.5, label: 'skew ±50 %' });
		}
		if (rows.has('fast')) out.push({ ...one, agents: variantSize, latencyMs: 300, label: 'fast 300 ms' });
		if (rows.has('style')) {
			out.push({ ...one, agents: variantSize, style: 'tool-call-only', label: 'tool-call-only' });
			out.push({ ...one, agents: variantSize, style: 'reasoning-first', label: 'reasoning-first' });
		}
		if (rows.has('revise')) {
			out.push({ ...one, agents: Math.min(...sizes), script: 'revise', label: 'revise once' });
		}
	}
	if (rows.has('mixed') && protocols.length > 1) {
		out.push({ ...base, protocols, agents: Math.max(variantSize, protocols.length), label: 'mixed team' });
	}
	return out;
}

async function measure(spec: RowSpec): Promise<RowResult> {
	const runs: RowResult[] = [];
	for (let i = 0; i < repeats; i++) runs.push(await runRow(spec));
	return runs.sort((a, b) => a.wallMs - b.wallMs)[Math.floor(runs.length / 2)]!;
}

/** The existing in-process figure (scripted model, no SDKs, no process): its own row. */
async function inProcess(agents: number, latencyMs: number) {
	await runOnce(3, 5, 4); // warm up the JIT and module loading
	const run = await runOnce(agents, latencyMs, 40);
	return {
		agents,
		latencyMs,
		wallMs: run.wallMs,
		ratio: run.wallMs / (3 * latencyMs),
		cpuMsPer1000Events: (run.cpuMs / run.events) * 1000,
		load: loadavg()[0]!,
	};
}

const fixed = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : '—');
const kilo = (n: number) => (n >= 10_000 ? `${(n / 1000).toFixed(1)} k` : String(n));

function spread(perAgent: Readonly<Record<string, number>>): string {
	const counts = Object.values(perAgent);
	const low = Math.min(...counts);
	const high = Math.max(...counts);
	return low === high ? String(low) : `${low}–${high}`;
}

type Scripted = Awaited<ReturnType<typeof inProcess>>;

function table(results: readonly RowResult[], scripted: Scripted | undefined): string {
	const head = [
		'row',
		'protocol',
		'N',
		'shape',
		'wall s',
		'critical s',
		'wall ÷ critical',
		'coordination ÷ path',
		'requests (ideal)',
		'per agent',
		'aborted (after output)',
		'prompt chars',
		'tool-schema bytes',
		'input tok',
		'cached tok',
		'start-up ms',
		'exit ms',
		'load',
	];
	const lines = results.map((r) => [
		r.spec.label,
		r.spec.protocols.map((p) => backendTypes[p]).join('+'),
		String(r.spec.agents),
		r.spec.style,
		fixed(r.wallMs / 1000, 2),
		fixed(r.criticalMs / 1000, 2),
		r.status === 'completed' ? fixed(r.ratio, 2) : `${r.status}`,
		fixed(r.coordinationRatio, 2),
		`${r.requests} (${r.idealRequests})`,
		spread(r.requestsPerAgent),
		`${r.aborted} (${r.abortedAfterOutput})`,
		kilo(r.promptChars),
		kilo(r.toolSchemaBytes),
		kilo(r.inputTokens),
		kilo(r.cachedInputTokens),
		fixed(r.startupMs),
		fixed(r.exitMs),
		fixed(r.load, 2),
	]);
	if (scripted) {
		// The scripted model has no wire: only time figures apply.
		const { agents, latencyMs, wallMs, ratio, load } = scripted;
		const time = [
			fixed(wallMs / 1000, 2),
			fixed((3 * latencyMs) / 1000, 2),
			fixed(ratio, 2),
			fixed(ratio, 2),
		];
		const rest = head.slice(8, -1).map(() => '—');
		lines.unshift([
			'in-process, scripted',
			'scripted',
			String(agents),
			'text-first',
			...time,
			...rest,
			fixed(load, 2),
		]);
	}
	return [head, head.map(() => '---'), ...lines].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

async function main() {
	const json = process.argv.includes('--json');
	const started = loadavg()[0]!;
	const scripted = rows.has('inprocess') ? await inProcess(variantSize, 400) : undefined;
	const results: RowResult[] = [];
	for (const spec of specs()) {
		const result = await measure(spec);
		results.push(result);
		if (!json) {
			process.stderr.write(
				`${spec.label} ${spec.protocols.join('+')} ×${spec.agents}: ${fixed(result.ratio, 2)}\n`,
			);
		}
	}
	if (json) {
		process.stdout.write(
			`${JSON.stringify({ node: process.version, loadAtStart: started, scripted, results }, null, 2)}\n`,
		);
		return;
	}
	const title = `Real path through ${relative(process.cwd(), cliPath)} (node ${process.version}; load average at start ${started.toFixed(2)})`;
	process.stdout.write(`${title}\n\n${table(results, scripted)}\n`);
}

void main();
