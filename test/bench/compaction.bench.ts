/**
 * `npm run bench` (last part): what compaction does to a long tool loop on the path users take.
 * `dist/cli.js run --json` with one agent (gpt-5-mini through the OpenAI SDK) against the loopback
 * Responses server, reading BENCH_COMPACTION_FILES files of 6 KB (default 30) before it answers:
 * with no limit (the conversation grows with every read), with the server answering
 * `context_length_exceeded` above 60 KB (no window known: compaction on the provider's error), and
 * with `context_window: 15000` in the config (compaction by estimate, before the server would
 * refuse). Per row: status, requests, refused, summary calls, the largest request and the bytes
 * of all requests (what the provider would bill as input), wall time. Markdown (JSON with `--json`).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { stringify } from 'yaml';
import { startLoopbackProvider } from '../servers/loopbackProvider.js';
import { readingFiles, readingScript, type ReadingState } from '../servers/readingAgent.js';

const count = Number(process.env['BENCH_COMPACTION_FILES'] ?? 30);
const cli = join(__dirname, '..', '..', 'dist', 'cli.js');

interface Row {
	readonly label: string;
	readonly maxPromptBytes?: number;
	readonly contextWindow?: number;
}

const rows: Row[] = [
	{ label: 'no limit' },
	{ label: 'server refuses above 60 KB', maxPromptBytes: 60_000 },
	{ label: 'context_window: 15000', maxPromptBytes: 60_000, contextWindow: 15_000 },
];

async function runRow(row: Row) {
	const state: ReadingState = { reads: 0, summaries: 0, answered: false };
	const tree = readingFiles(count);
	const server = await startLoopbackProvider('responses', {
		script: readingScript(Object.keys(tree), state),
		...(row.maxPromptBytes ? { contextLimit: { maxPromptBytes: row.maxPromptBytes } } : {}),
	});
	const root = mkdtempSync(join(tmpdir(), 'massgen-bench-compaction-'));
	try {
		for (const [path, text] of Object.entries(tree)) {
			mkdirSync(dirname(join(root, path)), { recursive: true });
			writeFileSync(join(root, path), text);
		}
		const backend = {
			type: 'openai',
			model: 'gpt-5-mini',
			base_url: server.baseUrl,
			api_key: 'loopback-key',
		};
		const agent = {
			id: 'reader',
			backend: { ...backend, ...(row.contextWindow ? { context_window: row.contextWindow } : {}) },
		};
		writeFileSync(join(root, 'team.yaml'), stringify({ agents: [agent] }));
		const started = performance.now();
		await new Promise<void>((resolve, reject) => {
			const child = spawn(
				process.execPath,
				[cli, 'run', '--json', '--config', 'team.yaml', 'Read every part of docs/.'],
				{
					cwd: root,
					env: { PATH: process.env['PATH'], HOME: process.env['HOME'] },
					stdio: ['ignore', 'ignore', 'ignore'],
				},
			);
			child.on('error', reject);
			child.on('close', () => resolve());
		});
		const wallMs = performance.now() - started;
		const runs = join(root, '.massgen', 'runs');
		const [id] = readdirSync(runs);
		const result = JSON.parse(readFileSync(join(runs, id!, 'result.json'), 'utf8')) as {
			status: string;
			finalAnswer: string | null;
		};
		const posts = server.requests.filter((request) => request.method === 'POST');
		const sizes = posts.map((request) => Buffer.byteLength(request.rawBody, 'utf8'));
		return {
			label: row.label,
			status: result.finalAnswer ? result.status : `${result.status}, no answer`,
			reads: state.reads,
			requests: posts.length,
			refused: posts.filter((request) => request.tooLong).length,
			summaries: state.summaries,
			maxKb: Math.round(Math.max(...sizes) / 1000),
			totalKb: Math.round(sizes.reduce((a, b) => a + b, 0) / 1000),
			wallMs: Math.round(wallMs),
		};
	} finally {
		await server.close();
		rmSync(root, { recursive: true, force: true });
	}
}

async function main(): Promise<void> {
	const results = [];
	for (const row of rows) results.push(await runRow(row));
	if (process.argv.includes('--json')) {
		console.log(JSON.stringify(results, null, 2));
		return;
	}
	console.log(`\nCompaction: one agent reads ${count} files of 6 KB (OpenAI Responses loopback)\n`);
	console.log(
		'| row | status | files read | requests | refused | summary calls | largest request | all requests | wall |',
	);
	console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
	for (const r of results) {
		console.log(
			`| ${r.label} | ${r.status} | ${r.reads} | ${r.requests} | ${r.refused} | ${r.summaries} | ${r.maxKb} KB | ${r.totalKb} KB | ${r.wallMs} ms |`,
		);
	}
}

void main();
