/**
 * `npm run bench` (MCP part): what `massgen mcp` adds over a plain `massgen run` on the same
 * four-server loopback team (no model latency, so the shells' own cost shows). Interleaved, median
 * of BENCH_MCP_RUNS (default 7) after one warm-up each:
 * - `run`: spawn → the first progress line on stderr (`run <id>: 4 agent(s) …`), and spawn → exit;
 * - `mcp`, cold: spawn, initialize, call ask_team → the first progress notification (the same
 *   run-start event), and → the tool result; then the server exits;
 * - `mcp`, warm: a second call on the same server → first progress, → result.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startLoopbackTeam } from '../servers/loopbackTeam.js';
import { makeWorkspaceDir } from '../support/tempTree.js';
import { cliPath } from './realPathRow.js';

const runs = Number(process.env['BENCH_MCP_RUNS'] ?? 7);

interface Timing {
	readonly firstProgress: number;
	readonly total: number;
}

function env(home: string): Record<string, string> {
	return { PATH: process.env['PATH'] ?? '', HOME: home, XDG_CONFIG_HOME: join(home, '.config') };
}

function plainRun(root: string, config: string, home: string): Promise<Timing> {
	return new Promise((resolve, reject) => {
		const started = performance.now();
		let firstProgress: number | undefined;
		const child = spawn(
			process.execPath,
			[cliPath, 'run', '--config', config, '--workspace', root, 'Bench question?'],
			{
				env: env(home),
				stdio: ['ignore', 'pipe', 'pipe'],
			},
		);
		child.stdout.resume();
		child.stderr.on('data', (chunk: Buffer) => {
			if (firstProgress === undefined && /^run \S+: \d+ agent/m.test(chunk.toString())) {
				firstProgress = performance.now() - started;
			}
		});
		child.on('error', reject);
		child.on('close', (code) => {
			if (code !== 0 || firstProgress === undefined) reject(new Error(`massgen run exited ${code}`));
			else resolve({ firstProgress, total: performance.now() - started });
		});
	});
}

async function askTeam(client: Client, started: number): Promise<Timing> {
	let firstProgress: number | undefined;
	const result = await client.callTool(
		{ name: 'ask_team', arguments: { question: 'Bench question?' } },
		undefined,
		{ onprogress: () => (firstProgress ??= performance.now() - started), timeout: 120_000 },
	);
	if (result.isError || firstProgress === undefined) throw new Error('ask_team failed');
	return { firstProgress, total: performance.now() - started };
}

async function mcpRun(root: string, config: string, home: string): Promise<{ cold: Timing; warm: Timing }> {
	const started = performance.now();
	const transport = new StdioClientTransport({
		command: process.execPath,
		args: [cliPath, 'mcp', '--workspace', root, '--config', config],
		env: env(home),
		stderr: 'ignore',
	});
	const client = new Client({ name: 'massgen-bench', version: '1.0.0' });
	await client.connect(transport);
	const cold = await askTeam(client, started);
	const warm = await askTeam(client, performance.now());
	await client.close();
	return { cold, warm };
}

const median = (values: readonly number[]) =>
	[...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main() {
	const loadBefore = loadavg()[0]!;
	const team = await startLoopbackTeam();
	const home = mkdtempSync(join(tmpdir(), 'massgen-bench-mcp-'));
	const config = join(home, 'team.yaml');
	writeFileSync(config, team.configYaml());
	const root = makeWorkspaceDir({ 'a.ts': 'export const a = 1;\n' });
	await plainRun(root, config, home);
	await mcpRun(root, config, home);
	const plain: Timing[] = [];
	const cold: Timing[] = [];
	const warm: Timing[] = [];
	for (let i = 0; i < runs; i++) {
		plain.push(await plainRun(root, config, home));
		const mcp = await mcpRun(root, config, home);
		cold.push(mcp.cold);
		warm.push(mcp.warm);
	}
	await team.close();
	const row = (label: string, timings: readonly Timing[]) => {
		const first = median(timings.map((t) => t.firstProgress));
		const total = median(timings.map((t) => t.total));
		const over = (value: number, base: number) => `${value >= base ? '+' : ''}${(value - base).toFixed(0)}`;
		const base = {
			first: median(plain.map((t) => t.firstProgress)),
			total: median(plain.map((t) => t.total)),
		};
		return `| ${label} | ${first.toFixed(0)} ms (${over(first, base.first)}) | ${total.toFixed(0)} ms (${over(total, base.total)}) |`;
	};
	process.stdout.write(
		[
			`massgen mcp over massgen run, 4-agent loopback team, no model latency (node ${process.version}, ${availableParallelism()} cores, median of ${runs}; load average ${loadBefore.toFixed(2)} → ${loadavg()[0]!.toFixed(2)})`,
			'',
			'| shell | first progress (vs run) | total (vs run) |',
			'| --- | --- | --- |',
			row('`massgen run`: spawn → first progress line, → exit', plain),
			row('`massgen mcp` cold: spawn + initialize + ask_team → first notification, → result', cold),
			row('`massgen mcp` warm: ask_team on a running server', warm),
			'',
		].join('\n'),
	);
}

void main();
