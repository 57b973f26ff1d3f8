import { createHash } from 'node:crypto';
import {
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	realpathSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeWorkspaceDir } from '../../fakes/team.js';
import { startLoopbackProvider, type LoopbackProvider } from '../../servers/loopbackProvider.js';
import { runCli } from '../cli/cliProcess.js';
import { customToolCall } from './codexWire.js';
import { readEvents, readResult, runDir } from '../../support/runDir.js';
import { waitFor } from '../../support/waitFor.js';

const key = 'loopback-openai-key';
/** Codex's metadata for this model gives it `apply_patch` (and defers MCP tools; called by name all the same). */
const model = 'gpt-5.5';

/** Every file of the workspace (outside `.massgen/`) by path → sha256. */
function hashes(root: string, folder = root, found: Record<string, string> = {}): Record<string, string> {
	for (const entry of readdirSync(folder, { withFileTypes: true })) {
		const full = join(folder, entry.name);
		if (entry.isDirectory()) {
			if (entry.name !== '.massgen') hashes(root, full, found);
		} else {
			found[full.slice(root.length + 1)] = createHash('sha256').update(readFileSync(full)).digest('hex');
		}
	}
	return found;
}

interface Result {
	readonly status: string;
	readonly winner: { readonly agentId: string };
	readonly answerChanges: readonly {
		readonly agentId: string;
		readonly changes: readonly { readonly path: string }[];
	}[];
	readonly changes: readonly { readonly path: string }[];
	readonly votes: readonly { readonly voter: string }[];
}

/**
 * A cache folder of the run's own (other suites' codex agents keep theirs in the shared one
 * meanwhile); not under the temp folder, where Codex would not install its sandbox helper.
 */
function privateCache(): string {
	const base = join(homedir(), '.cache', 'massgen-test');
	mkdirSync(base, { recursive: true });
	return mkdtempSync(join(base, 'xdg-cache-'));
}

/** The agents' folders (`codex-<label>`: its CODEX_HOME and launcher) in a cache folder. */
const codexHomes = (cache: string): string[] => {
	const dir = join(cache, 'massgen');
	return existsSync(dir) ? readdirSync(dir).filter((name) => name.startsWith('codex-')) : [];
};

/**
 * Issue 14: a `codex` member takes part in a run through `dist/cli.js` — the real Codex CLI (from
 * the pinned SDK) against a loopback Responses server, next to an API agent on another one. Its
 * own agent loop patches a file in its private folder and calls our workflow tools over the bridge.
 */
describe('a codex agent in a team (dist/cli.js)', () => {
	let api: LoopbackProvider;
	let codex: LoopbackProvider;
	beforeEach(async () => {
		api = await startLoopbackProvider('responses', { auto: { name: 'api' } });
		codex = await startLoopbackProvider('responses', { auto: { name: 'codex' } });
	});
	afterEach(async () => {
		await api.close();
		await codex.close();
	});

	it("converges with the coding agent's edit as its answer's change, the workspace untouched", async () => {
		const root = makeWorkspaceDir({ 'a.txt': 'old\n' });
		writeFileSync(
			join(root, 'team.yaml'),
			[
				'agents:',
				'  - id: api_agent',
				'    backend:',
				'      type: openai',
				'      model: gpt-5-mini',
				`      base_url: ${api.baseUrl}`,
				'  - id: coder',
				'    backend:',
				'      type: codex',
				`      model: ${model}`,
				`      base_url: ${codex.baseUrl}`,
				'      max_turns: 5',
				'',
			].join('\n'),
		);
		const before = hashes(root);
		const cache = privateCache();
		const patch = ['*** Begin Patch', '*** Add File: hello.txt', '+hello', '*** End Patch', ''].join('\n');
		codex.enqueue({ events: customToolCall('call_patch', 'apply_patch', patch, model) });
		const bridged = (id: string, name: string, args: Record<string, unknown>) => ({
			toolCalls: [{ id, namespace: 'mcp__massgen', name, arguments: args }],
		});
		codex.say(bridged('call_answer', 'new_answer', { content: 'Added hello.txt' }));
		codex.say(bridged('call_vote', 'vote', { agent_id: 'agent1', reason: 'it is complete' }));

		const run = await runCli(
			['run', '--trust-workspace', '--config', join(root, 'team.yaml'), 'Add a greeting file.'],
			{
				cwd: root,
				env: { OPENAI_API_KEY: key, XDG_CACHE_HOME: cache },
			},
		);
		expect(run.stderr).not.toContain(key);
		expect(run.code).toBe(0);
		// A MassGen key Codex has no counterpart for is named once.
		expect(readEvents(runDir(root)).filter((e) => e.type === 'notice' && e.agentId === 'coder')).toEqual([
			expect.objectContaining({ message: 'codex has no counterpart for max_turns: ignored' }),
		]);
		const result = readResult<Result>(runDir(root));
		expect(result.status).toBe('completed');
		const coderAnswer = result.answerChanges.find((set) => set.agentId === 'coder');
		expect(coderAnswer?.changes).toEqual([
			{ path: 'hello.txt', kind: 'add', baseHash: null, base: null, content: 'hello\n' },
		]);
		if (result.winner.agentId === 'coder') {
			expect(result.changes.map((change) => change.path)).toEqual(['hello.txt']);
		}
		expect(result.votes.map((vote) => vote.voter).sort()).toEqual(['api_agent', 'coder']);
		// The CLI got our prompt, our key and our provider; it worked in its private folder, never the workspace.
		expect(codex.requests[0]!.headers['authorization']).toBe(`Bearer ${key}`);
		expect(codex.requests[0]!.rawBody).toContain('new_answer');
		expect(codex.requests[0]!.rawBody).not.toContain(root);
		// Every response the CLI got is counted, also those of a turn still waiting on our tool when the
		// run ended (its vote): 9 (the patch) + 5 + 5 (scripted calls) + 30 per auto-agent reply.
		const output = readEvents(runDir(root))
			.filter((e) => e.type === 'usage' && e.agentId === 'coder')
			.reduce((sum, e) => sum + (e as { usage?: { outputTokens: number } }).usage!.outputTokens, 0);
		expect(output).toBe(9 + 5 + 5 + 30 * (codex.requests.length - 3));
		// Nothing reached the workspace: the edit lives in the answer until the user accepts it.
		expect(hashes(root)).toEqual({ ...before });
		// The agent's private CODEX_HOME is gone with the run.
		expect(codexHomes(cache)).toEqual([]);
		// It was there during the run (the folder the adapter made for it).
		expect(existsSync(join(cache, 'massgen'))).toBe(true);
		rmSync(cache, { recursive: true, force: true });
		// And no CLI process is left running, the presenter's included (a leftover fails by the test's timeout).
		await waitFor(() => cliProcesses(codex).length === 0, 'no codex CLI process left');
	});
	it('without its key the codex agent is left out with one clear message; the run goes on with the other', async () => {
		const claude = await startLoopbackProvider('anthropic', { auto: { name: 'claude' } });
		try {
			const root = makeWorkspaceDir({ 'a.txt': 'old\n' });
			writeFileSync(
				join(root, 'team.yaml'),
				[
					'agents:',
					'  - id: api_agent',
					'    backend:',
					'      type: claude',
					'      model: claude-sonnet-4-5',
					`      base_url: ${claude.baseUrl}`,
					'  - id: coder',
					'    backend:',
					'      type: codex',
					`      base_url: ${codex.baseUrl}`,
					'',
				].join('\n'),
			);
			const run = await runCli(['run', '--trust-workspace', '--config', join(root, 'team.yaml'), 'Say hi.'], {
				cwd: root,
				env: { ANTHROPIC_API_KEY: 'loopback-anthropic-key' },
			});
			expect(run.code).toBe(0);
			expect(run.stderr).toContain('Missing environment variable: `OPENAI_API_KEY`');
			expect(run.stderr).toContain('a codex agent needs OPENAI_API_KEY');
			const result = readResult<Result>(runDir(root));
			expect(result.status).toBe('completed');
			expect(result.winner.agentId).toBe('api_agent');
			// The CLI stopped before asking the model anything.
			expect(codex.requests).toHaveLength(0);
		} finally {
			await claude.close();
		}
	});

	it('mid-turn its CLI runs in our bubblewrap (own PID namespace, the workspace hidden); cancel: exit 4, no process left', async () => {
		const root = makeWorkspaceDir({ 'a.txt': 'old\n' });
		writeFileSync(
			join(root, 'team.yaml'),
			[
				'agent:',
				'  backend:',
				'    type: codex',
				`    model: ${model}`,
				`    base_url: ${codex.baseUrl}`,
				'',
			].join('\n'),
		);
		// The model's reply never ends: the CLI is mid-turn, waiting on its API.
		codex.enqueue({ turn: { text: 'thinking about it' }, stallAfter: 2 });
		let during: AgentProcess[] = [];
		let cli: { kill(signal: NodeJS.Signals): boolean; killed: boolean } | undefined;
		const watch = setInterval(() => {
			if (during.length === 0 && codex.requests.length > 0) during = agentProcesses(codex);
			if (during.length > 0 && cli && !cli.killed) cli.kill('SIGINT');
		}, 50);
		const run = await runCli(['run', '--trust-workspace', '--config', join(root, 'team.yaml'), 'Wait.'], {
			cwd: root,
			env: { OPENAI_API_KEY: key },
			onStderr: (_text, child) => {
				cli = child;
			},
		}).finally(() => clearInterval(watch));
		expect(run.code).toBe(4);
		expect(readResult<Result>(runDir(root)).status).toBe('cancelled');
		// The SDK started our launcher, which became bwrap around the CLI (CI and this machine have it).
		const bwrap = during.find(({ argv }) => argv[0]!.endsWith('bwrap'));
		// The one sandbox profile (sandboxProfile.ts): no capabilities, a new session, every namespace.
		expect(bwrap?.argv).toEqual(
			expect.arrayContaining(['--unshare-all', '--die-with-parent', '--new-session', '--cap-drop', 'ALL']),
		);
		expect(bwrap!.argv.join(' ')).toContain(`--tmpfs ${realpathSync(root)} `);
		expect(during.some(({ argv }) => argv.includes('exec') && argv.join(' ').includes(codex.baseUrl))).toBe(
			true,
		);
		// Inside, the CLI sees its own PID namespace: it is not the pid the host knows it by.
		const inner = during.find((p) => p.pid !== bwrap!.pid && p.nsPid !== p.pid);
		expect(inner).toBeDefined();
		// Nothing of it outlives the run (a leftover fails by the test's timeout).
		await waitFor(() => agentProcesses(codex).length === 0, 'no process of the codex agent left');
		expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('old\n');
	});
});

interface AgentProcess {
	readonly pid: number;
	readonly argv: string[];
	/** Its pid as it sees itself: another number inside a PID namespace of its own. */
	readonly nsPid: number;
}

/**
 * The processes of codex agents on `server`: the adapter's marker in their environment (every
 * process the CLI started inherits it) and the server's URL on their command line (other suites'
 * agents may be running at the same time).
 */
function agentProcesses(server: LoopbackProvider): AgentProcess[] {
	const found: AgentProcess[] = [];
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
			if (stat.slice(stat.lastIndexOf(')') + 2)[0] === 'Z') continue;
			if (!readFileSync(`/proc/${entry}/environ`, 'utf8').includes('MASSGEN_CODING_AGENT=codex-')) continue;
			const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
			if (!argv.some((arg) => arg.includes(server.baseUrl))) continue;
			found.push({ pid: Number(entry), argv, nsPid: nsPid(entry) });
		} catch {
			// Ended while we read it, or not ours.
		}
	}
	return found;
}

/** The process's pid in its innermost PID namespace (`NSpid`, last column). */
function nsPid(pid: string): number {
	const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^NSpid:\s*(.+)$/m)?.[1] ?? '';
	return Number(line.trim().split(/\s+/).at(-1));
}

/** Linux `/proc`: every live process with its command line. */
function processes(): { pid: number; cmdline: string }[] {
	const found: { pid: number; cmdline: string }[] = [];
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
			if (stat.slice(stat.lastIndexOf(')') + 2)[0] === 'Z') continue;
			found.push({
				pid: Number(entry),
				cmdline: readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' '),
			});
		} catch {
			// The process ended while we read it.
		}
	}
	return found;
}

/** The Codex CLI processes started against this test's server (its URL is on their command line). */
function cliProcesses(server: LoopbackProvider): { pid: number; cmdline: string }[] {
	return processes().filter((p) => p.cmdline.includes('codex exec') && p.cmdline.includes(server.baseUrl));
}
