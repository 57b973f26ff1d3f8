/**
 * Exhaustion through dist/cli.js: an MCP server's 12 MB message or 20,000 tools, special files
 * in the workspace, a 40 MB answer. Each must end in a normal exit with the reason where the
 * agent or the user reads it, never a crash (stack trace, no result.json) or a hang.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { maxAnswerBytes } from '../../../src/core/agents/workflowTools.js';
import { maxResponseChars } from '../../../src/core/providers/shared/generate.js';
import { makeWorkspaceDir } from '../../fakes/team.js';
import { startLoopbackProvider, type LoopbackProvider } from '../../servers/loopbackProvider.js';
import { floodServerFile, tsxLoader } from '../../servers/mcp/launch.js';
import { cliPath, runCli } from './cliProcess.js';
import { runDir } from '../../support/runDir.js';

const providers: LoopbackProvider[] = [];
afterEach(async () => {
	await Promise.all(providers.splice(0).map((provider) => provider.close()));
});

const env = () => ({ XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'massgen-xdg-')) });
/** Outside the workspace: the user's own config (trusted as such). */
function configFile(config: unknown): string {
	const file = join(mkdtempSync(join(tmpdir(), 'massgen-cfg-')), 'team.json');
	writeFileSync(file, JSON.stringify(config));
	return file;
}
const events = (dir: string) =>
	readFileSync(join(dir, 'events.jsonl'), 'utf8')
		.trim()
		.split('\n')
		.map((line) => JSON.parse(line) as Record<string, unknown>);
/** Node prints `    at fn (file:line:col)` frames for an uncaught exception. */
const stackFrame = /^\s+at .+:\d+:\d+\)?$/m;

const voter = {
	id: 'b',
	backend: { type: 'scripted', script: { coordination: [{ answer: 'b' }, { vote: 'first' }] } },
};

describe.runIf(process.platform !== 'win32' && existsSync(cliPath))('exhaustion (dist/cli.js)', () => {
	it('an MCP message of 12 MB and a server listing 20,000 tools: tool error and notice, the run completes with result.json', async () => {
		const flood = (name: string, tools: number) => ({
			name,
			command: process.execPath,
			args: ['--import', tsxLoader, floodServerFile],
			env: { MCP_FLOOD_TOOLS: String(tools) },
		});
		const config = configFile({
			agents: [
				{
					id: 'a',
					backend: {
						type: 'scripted',
						script: {
							coordination: [
								{
									tool_calls: [
										{ name: 'mcp__flood__read_log', arguments: { bytes: 1000 } },
										{ name: 'mcp__flood__read_log', arguments: { bytes: 12 * 1024 * 1024 } },
										{ name: 'mcp__flood__read_log', arguments: { bytes: 1000 } },
									],
									answer: 'a',
								},
								{ vote: 'first' },
							],
						},
						mcp_servers: [flood('flood', 0), flood('many', 20_000)],
					},
				},
				voter,
			],
			timeout_settings: { orchestrator_timeout_seconds: 120 },
		});
		const root = makeWorkspaceDir({ 'README.md': '# x\n' });
		const run = await runCli(['run', '--config', config, 'Read the log'], {
			cwd: root,
			env: env(),
			deadlineMs: 90_000,
		});
		expect(run.stderr).not.toMatch(stackFrame);
		expect(run.code).toBe(0);
		const dir = runDir(root);
		expect(JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8'))).toMatchObject({ status: 'completed' });
		expect(run.stderr).toContain(
			"MCP server 'many' is unavailable: could not start: the server lists more than 1000 tools (the limit)",
		);
		const results = events(dir).filter((e) => e.type === 'tool-result' && e.agentId === 'a');
		// Control: the normal-size message before it came through whole.
		expect(results[0]).toMatchObject({ isError: false, text: `log:${'x'.repeat(1000)}` });
		expect(results[1]).toMatchObject({
			isError: true,
			text: expect.stringMatching(
				/^mcp__flood__read_log: MCP server 'flood' is unavailable: the server sent a message of more than 10485760 bytes/,
			),
		});
		// The session stays ended: the next call says so instead of starting the server again.
		expect(results[2]).toMatchObject({ isError: true, text: results[1]!.text });
	}, 120_000);

	it('FIFOs named to read_file and search_files are refused with the reason; Ctrl-C then exits 4', async () => {
		const root = makeWorkspaceDir({ 'README.md': 'needle\n' });
		const pipes = ['notes.txt', 'f1', 'f2', 'f3', 'f4'];
		for (const pipe of pipes) execFileSync('mkfifo', [join(root, pipe)]);
		// `.env` as a FIFO too: read at start for keys, it must not block the run from starting.
		execFileSync('mkfifo', [join(root, '.env')]);
		const config = configFile({
			agents: [
				{
					id: 'a',
					backend: {
						type: 'scripted',
						script: {
							coordination: [
								{
									tool_calls: [
										...pipes.slice(0, 4).map((path) => ({ name: 'read_file', arguments: { path } })),
										{ name: 'search_files', arguments: { pattern: 'needle', path: 'f4' } },
										{ name: 'search_files', arguments: { pattern: 'needle' } },
										{ name: 'read_file', arguments: { path: 'README.md' } },
									],
									answer: 'a',
								},
							],
						},
					},
				},
				// Slow: the run is still going when the test presses Ctrl-C.
				{
					id: 'b',
					backend: { type: 'scripted', script: { latency_ms: 600_000, coordination: [{ answer: 'b' }] } },
				},
			],
		});
		let interrupted = false;
		const run = await runCli(['run', '--config', config, 'Read my notes'], {
			cwd: root,
			env: env(),
			deadlineMs: 60_000,
			// Ctrl-C once agent a has answered: every refusal is on stderr by then, b is still thinking.
			onStderr: (text, child) => {
				if (!interrupted && text.includes('a: new answer')) {
					interrupted = true;
					child.kill('SIGINT');
				}
			},
		});
		expect(interrupted).toBe(true);
		expect(run.code).toBe(4);
		expect(run.stderr).not.toMatch(stackFrame);
		for (const path of pipes.slice(0, 4)) {
			expect(run.stderr).toContain(
				`a: read_file failed: read_file: '${path}' is a FIFO (named pipe), not a regular file: only regular files are read`,
			);
		}
		expect(run.stderr).toContain(
			"a: search_files failed: search_files: 'f4' is a FIFO (named pipe), not a regular file: only regular files are read",
		);
		const results = events(runDir(root)).filter((e) => e.type === 'tool-result');
		// Controls: the whole-workspace search skips the FIFOs and finds the regular file; it reads.
		expect(results.slice(-2)).toEqual([
			expect.objectContaining({ name: 'search_files', isError: false, text: 'README.md:1: needle' }),
			expect.objectContaining({ name: 'read_file', isError: false, text: 'needle\n' }),
		]);
	}, 90_000);

	it('a 40 MB new_answer gets a workflow error it can act on; no later request of either agent carries it', async () => {
		const big = await startLoopbackProvider('chat', {
			auto: { name: 'big', presentation: 'Final from big.' },
		});
		const peer = await startLoopbackProvider('chat', {
			auto: { name: 'peer', presentation: 'Final from peer.' },
		});
		providers.push(big, peer);
		const answerBytes = 40 * 1024 * 1024;
		big.say({
			text: '',
			toolCalls: [{ name: 'new_answer', arguments: { content: 'x'.repeat(answerBytes) }, chunks: 400 }],
		});
		const agent = (id: string, provider: LoopbackProvider) => ({
			id,
			backend: { type: 'chatcompletion', model: 'loopback-chat', base_url: provider.baseUrl },
		});
		const config = configFile({ agents: [agent('a', big), agent('b', peer)] });
		const root = makeWorkspaceDir({ 'README.md': '# x\n' });
		const run = await runCli(['run', '--config', config, 'Write the report'], {
			cwd: root,
			env: env(),
			deadlineMs: 60_000,
		});
		expect(run.code).toBe(0);
		const dir = runDir(root);
		const errors = events(dir).filter((e) => e.type === 'workflow-error');
		expect(errors).toEqual([
			expect.objectContaining({
				agentId: 'a',
				message: `new_answer: The answer is ${answerBytes} bytes; the cap is ${maxAnswerBytes} (256 KB). Shorten it: summarise, and leave file contents to your file edits.`,
			}),
		]);
		// The premise: the server sent the 40 MB call (its first reply to a).
		expect(big.requests.length).toBeGreaterThan(1);
		// Every request the servers saw is small: a's retry (its history keeps only the size) and all of b's.
		const sizes = [...big.requests, ...peer.requests].map((request) => request.rawBody.length);
		expect(Math.max(...sizes)).toBeLessThan(64 * 1024);
		expect(JSON.stringify(big.requests[1]!.body)).toContain(
			`[${answerBytes} bytes, over the 256 KB cap: not kept]`,
		);
		// Nor do the logs hold it.
		expect(statSync(join(dir, 'events.jsonl')).size).toBeLessThan(1024 * 1024);
		expect(statSync(join(dir, 'result.json')).size).toBeLessThan(1024 * 1024);
	}, 90_000);

	it('a response streaming past 4 Mi characters is cut off there: that agent errors with the reason, the run completes', async () => {
		const endless = await startLoopbackProvider('chat', { auto: { name: 'endless' } });
		const peer = await startLoopbackProvider('chat', {
			auto: { name: 'peer', presentation: 'Final from peer.' },
		});
		providers.push(endless, peer);
		// 6 MiB of text in 64 KiB deltas: the client must stop reading after about 4 MiB of them.
		endless.say({ text: 'y'.repeat(6 * 1024 * 1024), textChunks: 96 });
		const agent = (id: string, provider: LoopbackProvider) => ({
			id,
			backend: { type: 'chatcompletion', model: 'loopback-chat', base_url: provider.baseUrl },
		});
		const config = configFile({ agents: [agent('a', endless), agent('b', peer)] });
		const root = makeWorkspaceDir({ 'README.md': '# x\n' });
		const run = await runCli(['run', '--config', config, 'Answer'], {
			cwd: root,
			env: env(),
			deadlineMs: 60_000,
		});
		expect(run.code).toBe(0);
		expect(JSON.parse(readFileSync(join(runDir(root), 'result.json'), 'utf8'))).toMatchObject({
			status: 'completed',
		});
		expect(run.stderr).toContain(
			`the response passed ${maxResponseChars} characters of text (the limit for one model response) and was cut off`,
		);
		// The client stopped taking the 6 MiB stream at the limit: a's deltas end within a delta of it.
		const streamed = events(runDir(root))
			.filter((e) => e.type === 'text-delta' && e.agentId === 'a')
			.reduce((sum, e) => sum + String(e.text).length, 0);
		expect(streamed).toBeLessThan(maxResponseChars + 64 * 1024);
		expect(streamed).toBeGreaterThan(maxResponseChars - 64 * 1024);
	}, 90_000);

	it('a run folder a repository ships with FIFOs: `runs` and `show` say so or skip them, and exit', async () => {
		const root = makeWorkspaceDir({ 'README.md': '# x\n' });
		// A real run first (two scripted agents), whose logs are then swapped for FIFOs.
		const config = configFile({
			agents: [{ ...voter, id: 'a' }, voter],
		});
		expect(
			(await runCli(['run', '--config', config, 'Hi'], { cwd: root, env: env(), deadlineMs: 20_000 })).code,
		).toBe(0);
		const real = runDir(root);
		const id = real.split('/').at(-1)!;
		for (const file of ['events.jsonl', 'changes.patch', 'changes-log.jsonl']) {
			rmSync(join(real, file), { force: true });
			execFileSync('mkfifo', [join(real, file)]);
		}
		const shown = await runCli(['show', id], { cwd: root, env: env(), deadlineMs: 20_000 });
		expect(shown.code).toBe(0);
		expect(shown.stdout).toContain(id);
		// A run whose result.json itself is a FIFO.
		const fake = join(root, '.massgen', 'runs', '20260101-000000-abcd');
		mkdirSync(fake, { recursive: true });
		for (const file of ['result.json', 'events.jsonl']) execFileSync('mkfifo', [join(fake, file)]);
		const runs = await runCli(['runs'], { cwd: root, env: env(), deadlineMs: 20_000 });
		expect(runs.code).toBe(0);
		expect(runs.stdout).toContain(id);
		expect(runs.stderr).toContain('skipped 20260101-000000-abcd: result.json cannot be read (ENOTREGULAR)');
		const show = await runCli(['show', '20260101-000000-abcd'], {
			cwd: root,
			env: env(),
			deadlineMs: 20_000,
		});
		expect(show.code).toBe(1);
		expect(show.stderr).toContain('run 20260101-000000-abcd: result.json cannot be read (ENOTREGULAR)');
	}, 60_000);
});
