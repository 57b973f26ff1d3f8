/**
 * Several `dist/cli.js run` processes on one workspace, against one loopback server that sees them
 * all: their requests overlap on the server (a gate holds each team's last model call until every
 * team has reached it, so neither run can finish, let alone apply, before both have written), then
 * both `--apply`: different hunks of one file and different files all land; the same lines leave
 * the first apply's text and a reported conflict (exit 2). Ctrl-C while an apply waits for the
 * workspace lock writes nothing. A run held open by the server is not removed by retention, nor
 * the turn it continues, nor a run whose changes wait; `--continue` meanwhile takes the latest
 * finished turn.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { acquireWorkspaceLock, defaultLockDir } from '../../../src/core/workspace/workspaceLock.js';
import { sha256 } from '../../../src/core/workspace/sha256.js';
import type { PresentationWrite } from '../../servers/autoAgent.js';
import {
	startLoopbackProvider,
	type LoopbackProvider,
	type RecordedRequest,
} from '../../servers/loopbackProvider.js';
import { makeWorkspaceDir } from '../../support/tempTree.js';
import { waitFor } from '../../support/waitFor.js';
import { connectMcp, resultText } from '../mcpServer/mcpClient.js';
import { runCli, type CliRun } from './cliProcess.js';

const baseLines = Array.from({ length: 20 }, (_, i) => `export const v${i + 1} = ${i + 1};\n`);
const base = baseLines.join('');
const withLines = (edits: Record<number, string>, from = base) =>
	from
		.split(/(?<=\n)/)
		.map((line, i) => (edits[i + 1] === undefined ? line : `${edits[i + 1]}\n`))
		.join('');

/** A team is named by its models' prefix: `alpha-1`, `alpha-2` are team alpha. */
const teamOf = (request: RecordedRequest) => request.model.split('-')[0]!;
const isPost = (request: RecordedRequest) => request.method === 'POST';
/** The presenter's call after its writes: no workflow tools, and a tool result to read. */
const isLastCall = (request: RecordedRequest) =>
	request.prompt.lastToolResult !== undefined &&
	!request.prompt.tools.some((tool) => tool.name === 'vote' || tool.name === 'new_answer');

describe('several massgen run processes on one workspace (dist/cli.js, one loopback server)', () => {
	let server: LoopbackProvider;
	/** What each team's presenter writes, by team. */
	let writes: Record<string, readonly PresentationWrite[]> = {};
	/** The server's gate for the test at hand. */
	let gate: (request: RecordedRequest) => Promise<void> | undefined = () => undefined;
	let configDir: string;
	beforeAll(async () => {
		server = await startLoopbackProvider('chat', {
			auto: { presentationWrites: (prompt) => writes[prompt.model.split('-')[0]!] ?? [] },
			hold: (request) => gate(request),
		});
		configDir = makeWorkspaceDir();
	});
	afterAll(() => server.close());

	function team(name: string): string {
		const agent = (n: number) => ({
			id: `${name}_${n}`,
			backend: {
				type: 'chatcompletion',
				model: `${name}-${n}`,
				base_url: server.baseUrl,
				api_key: 'loopback-key',
			},
		});
		const file = join(configDir, `${name}.yaml`);
		writeFileSync(file, stringify({ agents: [agent(1), agent(2)] }));
		return file;
	}

	function setup(files: Record<string, string>) {
		return { root: makeWorkspaceDir(files), env: { XDG_STATE_HOME: makeWorkspaceDir() } };
	}

	function run(root: string, env: NodeJS.ProcessEnv, name: string, args: string[] = ['--apply']) {
		return runCli(['run', ...args, '--config', team(name), `Edit as team ${name}`], {
			cwd: root,
			env,
			deadlineMs: 25_000,
		});
	}

	/** Every team's last call waits until all of `teams` have made theirs. */
	function barrier(teams: readonly string[]): void {
		const arrived = new Set<string>();
		let open!: () => void;
		const opened = new Promise<void>((resolve) => (open = resolve));
		gate = (request) => {
			if (!isPost(request) || !isLastCall(request)) return undefined;
			arrived.add(teamOf(request));
			if (teams.every((name) => arrived.has(name))) open();
			return opened;
		};
	}

	/** A request of team `a` and one of team `b` were in flight on the server at one time. */
	function overlapped(since: number, a: string, b: string): boolean {
		const of = (name: string) => server.requests.slice(since).filter((r) => isPost(r) && teamOf(r) === name);
		const end = (r: RecordedRequest) => r.settledAt ?? Infinity;
		return of(a).some((x) => of(b).some((y) => x.receivedAt < end(y) && y.receivedAt < end(x)));
	}

	async function together(root: string, env: NodeJS.ProcessEnv): Promise<[CliRun, CliRun]> {
		const since = server.requests.length;
		barrier(['alpha', 'beta']);
		const runs = await Promise.all([run(root, env, 'alpha'), run(root, env, 'beta')]);
		expect(overlapped(since, 'alpha', 'beta')).toBe(true);
		// Two runs, two folders.
		expect(readdirSync(join(root, '.massgen', 'runs'))).toHaveLength(2);
		return runs;
	}

	it('different hunks of one file, and different files: every edit lands, both exit 0', async () => {
		const alpha = withLines({ 3: 'export const v3 = "alpha";' });
		const beta = withLines({ 15: 'export const v15 = "beta";' });
		writes = {
			alpha: [{ path: 'src/app.js', content: alpha }],
			beta: [
				{ path: 'src/app.js', content: beta },
				{ path: 'src/beta.js', content: 'export const beta = true;\n' },
			],
		};
		const { root, env } = setup({ 'src/app.js': base });
		const runs = await together(root, env);
		expect(runs.map((r) => r.code)).toEqual([0, 0]);
		const both = withLines({ 3: 'export const v3 = "alpha";', 15: 'export const v15 = "beta";' });
		expect(sha256(readFileSync(join(root, 'src/app.js'), 'utf8'))).toBe(sha256(both));
		expect(readFileSync(join(root, 'src/beta.js'), 'utf8')).toBe('export const beta = true;\n');
		// The second to take the lock merged three-way against its own run's base.
		expect(runs.filter((r) => r.stderr.includes('merged your edits with the team')).length).toBe(1);
	});

	it('the same lines: the first apply stays whole, the second reports the conflict, writes nothing and exits 2', async () => {
		const versions = {
			alpha: withLines({ 3: 'export const v3 = "alpha";' }),
			beta: withLines({ 3: 'export const v3 = "beta, longer";', 4: 'export const v4 = "beta";' }),
		};
		writes = {
			alpha: [{ path: 'src/app.js', content: versions.alpha }],
			beta: [
				{ path: 'src/app.js', content: versions.beta },
				{ path: 'src/only-beta.js', content: 'export {};\n' },
			],
		};
		const { root, env } = setup({ 'src/app.js': base });
		const [alpha, beta] = await together(root, env);
		expect([alpha.code, beta.code].sort()).toEqual([0, 2]);
		const [winner, loser] = alpha.code === 0 ? ['alpha', beta] : ['beta', alpha];
		expect(readFileSync(join(root, 'src/app.js'), 'utf8')).toBe(versions[winner as 'alpha' | 'beta']);
		expect(loser.stderr).toContain('not applied: src/app.js: you changed it since the team read it');
		expect(loser.stderr).toContain('nothing was written');
		// All or nothing: beta's other file lands only if beta applied.
		expect(readdirSync(join(root, 'src')).includes('only-beta.js')).toBe(winner === 'beta');
	});

	/** `args` run while the test holds the workspace's lock; SIGINT once the CLI says it waits. */
	async function interruptedWhileLocked(
		root: string,
		env: NodeJS.ProcessEnv,
		args: string[],
	): Promise<CliRun> {
		const held = await acquireWorkspaceLock(root, { tool: 'the test', dir: defaultLockDir(env) });
		try {
			let stopped = false;
			const waited = await runCli(args, {
				cwd: root,
				env,
				deadlineMs: 25_000,
				onStderr: (text, child) => {
					if (
						!stopped &&
						text.includes('(the test, pid') &&
						text.includes('up to 120 s, Ctrl-C stops waiting')
					) {
						stopped = true;
						child.kill('SIGINT');
					}
				},
			});
			expect(stopped).toBe(true);
			return waited;
		} finally {
			await held.release();
		}
	}

	it('Ctrl-C while an apply waits for the workspace lock: nothing written, exit 4', async () => {
		writes = { alpha: [{ path: 'src/app.js', content: withLines({ 3: 'x' }) }] };
		gate = () => undefined;
		const { root, env } = setup({ 'src/app.js': base });
		const waited = await interruptedWhileLocked(root, env, [
			'run',
			'--apply',
			'--config',
			team('alpha'),
			'Edit',
		]);
		expect(waited.stderr).toContain('nothing was written: stopped waiting for the workspace lock');
		expect(waited.code).toBe(4);
		expect(readFileSync(join(root, 'src/app.js'), 'utf8')).toBe(base);
	});

	it('Ctrl-C while massgen revert waits for the workspace lock: nothing reverted, exit 4', async () => {
		const edited = withLines({ 3: 'y' });
		writes = { alpha: [{ path: 'src/app.js', content: edited }] };
		gate = () => undefined;
		const { root, env } = setup({ 'src/app.js': base });
		expect((await run(root, env, 'alpha')).code).toBe(0);
		const [runId] = readdirSync(join(root, '.massgen', 'runs'));
		const reverting = await interruptedWhileLocked(root, env, ['revert', runId!]);
		expect(reverting.stderr).toContain('nothing was written: stopped waiting for the workspace lock');
		expect(reverting.code).toBe(4);
		expect(readFileSync(join(root, 'src/app.js'), 'utf8')).toBe(edited);
	});

	it('a massgen run --apply and a massgen mcp ask_team at once: two runs, the run applies, the call leaves its changes pending', async () => {
		const alpha = withLines({ 3: 'export const v3 = "alpha";' });
		writes = {
			alpha: [{ path: 'src/app.js', content: alpha }],
			mcp: [{ path: 'src/app.js', content: withLines({ 15: 'export const v15 = "mcp";' }) }],
		};
		const { root, env } = setup({ 'src/app.js': base });
		const mcp = await connectMcp(['--workspace', root, '--config', team('mcp')], env);
		try {
			const since = server.requests.length;
			barrier(['alpha', 'mcp']);
			const [cli, call] = await Promise.all([
				run(root, env, 'alpha'),
				mcp.client.callTool({ name: 'ask_team', arguments: { question: 'Edit as team mcp' } }, undefined, {
					timeout: 25_000,
				}) as Promise<CallToolResult>,
			]);
			expect(overlapped(since, 'alpha', 'mcp')).toBe(true);
			expect(cli.code, cli.stderr).toBe(0);
			expect(call.isError).toBeFalsy();
			const text = resultText(call);
			expect(text).toContain('NOT applied');
			expect(text).toContain('+export const v15 = "mcp";');
			// Only the CLI's apply reached the file; the call's run is its own, its changes pending.
			expect(readFileSync(join(root, 'src/app.js'), 'utf8')).toBe(alpha);
			const callRun = /run id: (\S+)/.exec(text)![1]!;
			const runs = readdirSync(join(root, '.massgen', 'runs'));
			expect(runs).toHaveLength(2);
			expect(runs).toContain(callRun);
			const listed = resultText(await mcp.client.callTool({ name: 'list_runs', arguments: {} }));
			expect(listed).toMatch(new RegExp(`- ${callRun} \\(.*pending`));
		} finally {
			await mcp.close();
		}
	});

	it('retention and --continue while another process runs: the running run, its parent and a pending run stay', async () => {
		writes = { pend: [{ path: 'src/app.js', content: withLines({ 1: 'pending' }) }] };
		gate = () => undefined;
		const { root, env } = setup({ 'src/app.js': base });
		const ids = () =>
			existsSync(join(root, '.massgen')) ? readdirSync(join(root, '.massgen', 'runs')).sort() : [];
		const finish = async (name: string, args: string[] = []) => {
			const before = new Set(ids());
			const done = await run(root, env, name, args);
			expect(done.code, done.stderr).toBe(0);
			return ids().find((id) => !before.has(id))!;
		};
		const old = await finish('old');
		const parent = await finish('parent');
		// Changes proposed, neither accepted nor rejected: pending.
		const pending = await finish('pend');

		// A follow-up of `parent`, held open by the server until released.
		let release!: () => void;
		const released = new Promise<void>((resolve) => (release = resolve));
		gate = (request) => (teamOf(request) === 'held' ? released : undefined);
		const before = new Set(ids());
		const held = run(root, env, 'held', ['--continue', parent]);
		await waitFor(() => server.requests.some((r) => teamOf(r) === 'held'), 'the held run to call the server');
		const live = ids().find((id) => !before.has(id))!;
		expect(readdirSync(join(root, '.massgen', 'runs', live))).toContain('running.json');

		const pruned = await runCli(['runs', '--keep', '0'], { cwd: root, env });
		expect(pruned.code).toBe(0);
		expect(pruned.stderr).toContain(`deleted 1 run(s): ${old}`);
		// The listing says the held run goes on now (its marker's process runs).
		expect(pruned.stderr).toContain(`skipped ${live}: running now (pid `);
		expect(ids()).toEqual([parent, pending, live].sort());

		// The newest folder is the running one; the latest finished turn is `pending`'s.
		const next = await run(root, env, 'next', ['--continue']);
		expect(next.code).toBe(0);
		expect(next.stderr).toContain(`massgen: continuing session ${pending} after run ${pending}`);

		release();
		const ended = await held;
		expect(ended.code).toBe(0);
		expect(readdirSync(join(root, '.massgen', 'runs', live))).not.toContain('running.json');
		expect(readdirSync(join(root, '.massgen', 'runs', live))).toContain('result.json');
	});
});
