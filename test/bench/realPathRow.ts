import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import type { StreamStyle } from '../servers/autoAgent.js';
import { startLoopbackProvider, type Latency, type LoopbackProtocol } from '../servers/loopbackProvider.js';
import { summarizeRequests } from '../servers/requestSummary.js';

/** `BENCH_CLI` measures another build (e.g. one of an older commit) with the same servers. */
export const cliPath = process.env['BENCH_CLI'] ?? join(__dirname, '..', '..', 'dist', 'cli.js');

/** The backend type of the MassGen config that talks each protocol. */
export const backendTypes: Record<LoopbackProtocol, string> = {
	responses: 'openai',
	chat: 'chatcompletion',
	anthropic: 'claude',
	gemini: 'gemini',
};

export type Script = 'converge' | 'revise';

export interface RowSpec {
	readonly label: string;
	/** One protocol, or several: agent i talks `protocols[i % length]` (a mixed team). */
	readonly protocols: readonly LoopbackProtocol[];
	readonly agents: number;
	/** Latency of one model call (time to first byte + stream), before skew. */
	readonly latencyMs: number;
	/** Per-agent spread: agent latencies run evenly from (1 − skew) to (1 + skew) × `latencyMs`. */
	readonly skew: number;
	readonly style: StreamStyle;
	/** `converge`: answer, vote, present. `revise`: the same, but agent a1 revises its answer once. */
	readonly script: Script;
	/** Each agent's own call latency (overrides `latencyMs` and `skew`). */
	readonly latencies?: readonly number[];
	/** The presentation's latency whoever presents (default: the presenter's own). */
	readonly presentationMs?: number;
	/** `orchestrator.coordination.quorum`; absent = off. */
	readonly quorum?: number | 'majority';
}

export interface RowResult {
	readonly spec: RowSpec;
	readonly status: string;
	readonly wallMs: number;
	/** Spawn → the first request any server saw. */
	readonly startupMs: number;
	/** The last reply finished → the process exited (writing the run log, shutting down). */
	readonly exitMs: number;
	/** Start-up plus the protocol's shortest path from the configured latencies (see `criticalPathMs`). */
	readonly criticalMs: number;
	readonly ratio: number;
	/** First request → last reply, against the critical path without start-up: coordination alone. */
	readonly coordinationRatio: number;
	readonly requests: number;
	readonly idealRequests: number;
	readonly requestsPerAgent: Readonly<Record<string, number>>;
	readonly aborted: number;
	readonly abortedAfterOutput: number;
	readonly promptChars: number;
	readonly toolSchemaBytes: number;
	readonly bodyBytes: number;
	readonly cacheControlMarks: number;
	readonly promptCacheKeys: number;
	readonly inputTokens: number;
	readonly cachedInputTokens: number;
	readonly winner?: string;
	/** One-minute load average when the row finished. */
	readonly load: number;
	/** Every request, in arrival order, in milliseconds since the spawn (for `--json`: where the time went). */
	readonly timeline: readonly TimelineEntry[];
}

export interface TimelineEntry {
	readonly agent: string;
	readonly startMs: number;
	readonly endMs: number;
	readonly aborted: boolean;
	readonly afterOutput: boolean;
}

/** The prefill takes half of a call, the stream the other half. */
function splitLatency(totalMs: number): Latency {
	return { firstByteMs: Math.round(totalMs / 2), streamMs: Math.round(totalMs / 2) };
}

export function agentLatencies(spec: RowSpec): number[] {
	if (spec.latencies) return [...spec.latencies];
	return Array.from({ length: spec.agents }, (_, i) => {
		const position = spec.agents > 1 ? (2 * i) / (spec.agents - 1) - 1 : 0;
		return Math.round(spec.latencyMs * (1 + spec.skew * position));
	});
}

/**
 * The shortest run the protocol allows, from the configured latencies: every agent's first answer
 * (the slowest), then every vote on the full set (the slowest), then the winner's presentation.
 * With a revision, votes must wait for the revised answer (a1's second call) as well.
 */
export function criticalPathMs(spec: RowSpec, latencies: readonly number[], winnerIndex: number): number {
	const slowest = Math.max(...latencies);
	const answers = spec.script === 'revise' ? Math.max(slowest, 2 * latencies[0]!) : slowest;
	return answers + slowest + (latencies[winnerIndex] ?? slowest);
}

/**
 * Converge: N answers, N votes, one presentation. Revise: a1's revision lands while the others vote
 * (a1 starts it on seeing its own answer), so their votes are stale and each votes again: 3N + 1.
 */
export const idealRequests = (spec: RowSpec) =>
	spec.script === 'revise' ? 3 * spec.agents + 1 : 2 * spec.agents + 1;

/** Runs `dist/cli.js run --json` once against fresh loopback servers and measures it from their logs. */
export async function runRow(
	spec: RowSpec,
	options: { timeoutSeconds?: number; env?: NodeJS.ProcessEnv } = {},
): Promise<RowResult> {
	if (!existsSync(cliPath)) {
		throw new Error(`${cliPath} not found: run \`npm run build:cli\` (or set BENCH_CLI)`);
	}
	const latencies = agentLatencies(spec);
	const agents = latencies.map((latency, i) => ({
		id: `a${i + 1}`,
		protocol: spec.protocols[i % spec.protocols.length]!,
		model: `bench-a${i + 1}`,
		latency: splitLatency(latency),
	}));
	const byModel = Object.fromEntries(agents.map((a) => [a.model, a.latency]));
	const presentation = spec.presentationMs === undefined ? undefined : splitLatency(spec.presentationMs);
	// A presentation offers no workflow tool: the body never names `new_answer`.
	const latencyPlan = (request: { readonly model: string; readonly body: unknown }) =>
		presentation && !JSON.stringify(request.body).includes('"new_answer"')
			? presentation
			: byModel[request.model];
	const used = [...new Set(agents.map((a) => a.protocol))];
	const servers = await Promise.all(
		used.map((protocol) =>
			startLoopbackProvider(protocol, {
				auto: { name: protocol, style: spec.style, revisers: spec.script === 'revise' ? ['bench-a1'] : [] },
				latency: latencyPlan,
				simulateCache: true,
			}),
		),
	);
	const serverOf = (protocol: LoopbackProtocol) => servers[used.indexOf(protocol)]!;
	const root = mkdtempSync(join(tmpdir(), 'massgen-realpath-'));
	try {
		writeFileSync(join(root, 'a.ts'), 'export const a = 1;\n');
		const config = {
			agents: agents.map((a) => ({
				id: a.id,
				backend: {
					type: backendTypes[a.protocol],
					model: a.model,
					base_url: serverOf(a.protocol).baseUrl,
					api_key: `bench-${a.protocol}-key`,
				},
			})),
			...(spec.quorum === undefined ? {} : { orchestrator: { coordination: { quorum: spec.quorum } } }),
		};
		writeFileSync(join(root, 'team.yaml'), stringify(config));
		const args = ['run', '--config', join(root, 'team.yaml'), '--json'];
		args.push('--timeout', String(options.timeoutSeconds ?? 120), 'What does a.ts export?');
		const { wallMs, spawnedAt, stdout, code } = await runCli(args, root, options.env);
		const summary = summarizeRequests(servers.flatMap((s) => s.requests));
		const runEnd = stdout
			.split('\n')
			.filter((line) => line.startsWith('{'))
			.map((line) => JSON.parse(line) as { type: string; status?: string })
			.find((event) => event.type === 'run-end');
		const result = readResult(root);
		const winner = result?.winner?.agentId;
		const startupMs = summary.firstReceivedAt !== undefined ? summary.firstReceivedAt - spawnedAt : NaN;
		const winnerIndex = agents.findIndex((a) => a.id === winner);
		const pathMs = criticalPathMs(spec, latencies, winnerIndex);
		const criticalMs = startupMs + pathMs;
		const coordinationMs =
			summary.lastSettledAt !== undefined && summary.firstReceivedAt !== undefined
				? summary.lastSettledAt - summary.firstReceivedAt
				: NaN;
		const perAgent: Record<string, number> = {};
		for (const a of agents) perAgent[a.id] = summary.perModel[a.model] ?? 0;
		const sum = (pick: (u: Usage) => number) => (result?.usage ?? []).reduce((n, u) => n + pick(u), 0);
		return {
			spec,
			status: runEnd?.status ?? `exit ${code}`,
			wallMs,
			startupMs,
			exitMs: summary.lastSettledAt !== undefined ? spawnedAt + wallMs - summary.lastSettledAt : NaN,
			criticalMs,
			ratio: wallMs / criticalMs,
			coordinationRatio: coordinationMs / pathMs,
			requests: summary.requests,
			idealRequests: idealRequests(spec),
			requestsPerAgent: perAgent,
			aborted: summary.closedByClient,
			abortedAfterOutput: summary.closedAfterOutput,
			promptChars: summary.promptChars,
			toolSchemaBytes: summary.toolSchemaBytes,
			bodyBytes: summary.bodyBytes,
			cacheControlMarks: summary.cacheControlMarks,
			promptCacheKeys: summary.promptCacheKeys.length,
			inputTokens: sum((u) => u.inputTokens),
			cachedInputTokens: sum((u) => u.cachedInputTokens ?? 0),
			...(winner ? { winner } : {}),
			load: loadavg()[0]!,
			timeline: summary.each.map((r) => ({
				agent: agents.find((a) => a.model === r.model)?.id ?? r.model,
				startMs: Math.round(r.receivedAt - spawnedAt),
				endMs: Math.round((r.settledAt ?? NaN) - spawnedAt),
				aborted: r.closedByClient,
				afterOutput: r.closedAfterOutput,
			})),
		};
	} finally {
		await Promise.all(servers.map((s) => s.close()));
		rmSync(root, { recursive: true, force: true });
	}
}

interface Usage {
	readonly inputTokens: number;
	readonly cachedInputTokens?: number;
}

function readResult(root: string): { winner?: { agentId: string }; usage?: Usage[] } | undefined {
	const runs = join(root, '.massgen', 'runs');
	try {
		const [run] = readdirSync(runs);
		return run ? JSON.parse(readFileSync(join(runs, run, 'result.json'), 'utf8')) : undefined;
	} catch {
		return undefined;
	}
}

function runCli(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
	return new Promise<{ wallMs: number; spawnedAt: number; stdout: string; code: number | null }>(
		(resolve, reject) => {
			const spawnedAt = performance.timeOrigin + performance.now();
			const child = spawn(process.execPath, [cliPath, ...args], {
				cwd,
				env: { PATH: process.env['PATH'], HOME: process.env['HOME'], ...env },
				stdio: ['ignore', 'pipe', 'ignore'],
			});
			let stdout = '';
			child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
			child.on('error', reject);
			child.on('close', (code) => {
				const wallMs = performance.timeOrigin + performance.now() - spawnedAt;
				resolve({ wallMs, spawnedAt, stdout, code });
			});
		},
	);
}
