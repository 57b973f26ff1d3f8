import { spawn } from 'node:child_process';
import {
	existsSync,
	mkdtempSync,
	readFileSync,
	readdirSync,
	realpathSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeWorkspaceDir } from '../../fakes/team.js';
import { startLoopbackProvider, type LoopbackProvider } from '../../servers/loopbackProvider.js';
import { cliPath, runCli } from '../cli/cliProcess.js';
import { readEvents, runDir } from '../../support/runDir.js';
import { waitFor } from '../../support/waitFor.js';

const key = 'loopback-anthropic-key';

function singleAgentYaml(server: LoopbackProvider): string {
	return [
		'agents:',
		'  - id: coder',
		'    backend:',
		'      type: claude_code',
		'      model: claude-sonnet-4-5',
		`      base_url: ${server.baseUrl}`,
		'      allowed_tools: [Read, Write, Edit, Bash]',
		'',
	].join('\n');
}

/**
 * The processes of claude_code agents on `server`: the adapter's marker and the server's URL in
 * their environment (every process the CLI started inherits both; other suites' agents may be
 * running at the same time).
 */
function markedProcesses(server: LoopbackProvider): number[] {
	const found: number[] = [];
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const environ = readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0');
			const state = readFileSync(`/proc/${entry}/stat`, 'utf8');
			const zombie = state.slice(state.lastIndexOf(')') + 2).startsWith('Z');
			const marked = environ.some((pair) => pair.startsWith('MASSGEN_CODING_AGENT=claude-'));
			const onServer = environ.includes(`ANTHROPIC_BASE_URL=${server.baseUrl}`);
			if (!zombie && marked && onServer) found.push(Number(entry));
		} catch {
			// Ended while we read it, or not ours.
		}
	}
	return found;
}

/** Issue 14: what a claude_code agent may not do, and that nothing of it outlives a cancel. */
describe('a claude_code agent is contained (dist/cli.js)', () => {
	let server: LoopbackProvider;
	let outside: string;
	beforeEach(async () => {
		server = await startLoopbackProvider('anthropic', { auto: { name: 'claude' } });
		outside = mkdtempSync(join(tmpdir(), 'massgen-cc-outside-'));
	});
	afterEach(async () => {
		await server.close();
		rmSync(outside, { recursive: true, force: true });
	});

	it('its Bash never runs and a write outside its folder is refused; the CLI is told why and the lane shows it', async () => {
		const root = makeWorkspaceDir({ 'a.txt': 'old\n' });
		writeFileSync(join(root, 'team.yaml'), singleAgentYaml(server));
		const marker = join(outside, 'bash-ran');
		const escaped = join(outside, 'escaped.txt');
		server.say({
			toolCalls: [
				{ id: 'toolu_b', name: 'Bash', arguments: { command: `touch ${marker}`, description: 'mark' } },
			],
			usage: { input: 40, output: 9 },
		});
		server.say({
			toolCalls: [{ id: 'toolu_w', name: 'Write', arguments: { file_path: escaped, content: 'out\n' } }],
			usage: { input: 50, output: 9 },
		});
		const run = await runCli(['run', '--trust-workspace', '--config', join(root, 'team.yaml'), 'Mark it.'], {
			cwd: root,
			env: { ANTHROPIC_API_KEY: key, HOME: outside },
		});
		expect(run.code).toBe(0);
		expect(existsSync(marker)).toBe(false);
		expect(existsSync(escaped)).toBe(false);
		expect(server.requests[1]!.prompt.lastToolResult).toContain('Bash is not available here');
		expect(server.requests[2]!.prompt.lastToolResult).toContain('is outside your working folder');
		const lane = readEvents(runDir(root))
			.filter((event) => event.type === 'reasoning-delta')
			.map((event) => event.text)
			.join('');
		expect(lane).toContain(`[Bash touch ${marker}] refused`);
		expect(lane).toContain(`[Write ${escaped}] refused`);
		expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('old\n');
	});

	it('as the single agent, its edits become the change set; a refused one (a protected file) is undone and the CLI told; a secret path is refused at once', async () => {
		const root = makeWorkspaceDir({ 'a.txt': 'old\n' });
		writeFileSync(
			join(root, 'team.yaml'),
			`${singleAgentYaml(server)}orchestrator:\n  protected_paths: [locked.txt]\n`,
		);
		const write = (id: string, file: string, content: string) => ({
			toolCalls: [{ id, name: 'Write', arguments: { file_path: file, content } }],
			usage: { input: 40, output: 9 },
		});
		server.say(write('toolu_ok', 'ok.txt', 'fine\n'));
		server.say(write('toolu_env', '.env', 'TOKEN=x\n'));
		server.say(write('toolu_locked', 'locked.txt', 'mine\n'));
		server.say({ text: 'Wrote ok.txt, .env and locked.txt.', usage: { input: 60, output: 5 } });
		const run = await runCli(
			['run', '--trust-workspace', '--config', join(root, 'team.yaml'), 'Write the files.'],
			{
				cwd: root,
				env: { ANTHROPIC_API_KEY: key, HOME: outside },
			},
		);
		expect(run.code).toBe(0);
		const runs = join(root, '.massgen', 'runs');
		const result = JSON.parse(readFileSync(join(runs, readdirSync(runs)[0]!, 'result.json'), 'utf8'));
		expect(result.changes.map((change: { path: string }) => change.path)).toEqual(['ok.txt']);
		// The secret path never reached the folder: the native tool policy refused the call itself.
		expect(server.requests[2]!.prompt.lastToolResult).toContain("is a secret path (matches '.env*')");
		// The final answer is the text the CLI streamed in its last turn.
		expect(result.finalAnswer).toContain('presented by the claude agent');
		// The protected file's refusal reached the CLI in its next turn, which the auto-agent answered.
		expect(server.requests).toHaveLength(5);
		const told = server.requests[4]!.prompt.texts.join('\n');
		expect(told).toContain('These file changes of yours were refused and undone in your folder');
		expect(told).toContain('- locked.txt:');
		for (const file of ['ok.txt', '.env', 'locked.txt']) expect(existsSync(join(root, file))).toBe(false);
	});

	it('a command goes through our run_command: its edit first, then the command, whose output resumes the same turn', async () => {
		const root = makeWorkspaceDir({ 'a.txt': 'old\n' });
		const yaml = singleAgentYaml(server).replace(
			'allowed_tools',
			'enable_command_execution: true\n      allowed_tools',
		);
		writeFileSync(join(root, 'team.yaml'), yaml);
		server.say({
			toolCalls: [
				{ id: 'toolu_w', name: 'Write', arguments: { file_path: 'note.txt', content: 'from claude\n' } },
			],
			usage: { input: 40, output: 9 },
		});
		server.say({
			toolCalls: [
				{ id: 'toolu_c', name: 'mcp__massgen__run_command', arguments: { command: 'cat note.txt' } },
			],
			usage: { input: 50, output: 9 },
		});
		const run = await runCli(
			['run', '--yes', '--trust-workspace', '--config', join(root, 'team.yaml'), 'Check the note.'],
			{
				cwd: root,
				env: { ANTHROPIC_API_KEY: key, HOME: outside },
			},
		);
		expect(run.code).toBe(0);
		expect(server.requests).toHaveLength(3);
		expect(server.requests[2]!.prompt.lastToolResult).toContain('from claude');
		const calls = readEvents(runDir(root)).filter((event) => event.type === 'tool-call') as {
			name?: string;
		}[];
		expect(calls.map((call) => call.name)).toEqual(['write_file', 'run_command']);
		expect(existsSync(join(root, 'note.txt'))).toBe(false);
	});

	it('cancel mid-turn leaves no process of the agent', async () => {
		const root = makeWorkspaceDir({ 'a.txt': 'old\n' });
		writeFileSync(join(root, 'team.yaml'), singleAgentYaml(server));
		// The model's reply never ends: the CLI is mid-turn, waiting on its API.
		server.enqueue({ turn: { text: 'thinking about it' }, stallAfter: 2 });
		expect(markedProcesses(server)).toEqual([]);
		const child = spawn(
			process.execPath,
			[cliPath, 'run', '--trust-workspace', '--config', join(root, 'team.yaml'), 'Wait.'],
			{
				cwd: root,
				env: { PATH: process.env.PATH, HOME: outside, ANTHROPIC_API_KEY: key },
				stdio: ['ignore', 'ignore', 'pipe'],
			},
		);
		const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
		await waitFor(() => server.requests.length > 0, 'the CLI to ask the fake Claude server');
		const during = markedProcesses(server);
		expect(during.length).toBeGreaterThan(0);
		// Where bubblewrap runs (this machine has it), the CLI runs in a PID namespace of its own.
		const commands = during.map((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0'));
		const bwrap = commands.find((argv) => argv[0]!.endsWith('bwrap') && argv.includes('--unshare-all'));
		expect(bwrap !== undefined).toBe(existsSync('/usr/bin/bwrap'));
		// There, the user's workspace is hidden from it (an empty tmpfs): it sees only its copy.
		if (bwrap) expect(bwrap.join(' ')).toContain(`--tmpfs ${realpathSync(root)} `);
		// The one sandbox profile (sandboxProfile.ts): no capabilities, no nested user namespaces.
		if (bwrap) expect(bwrap.join(' ')).toContain('--disable-userns --share-net --cap-drop ALL');
		child.kill('SIGINT');
		await exited;
		await waitFor(
			() => during.every((pid) => !markedProcesses(server).includes(pid)),
			'every process of the cancelled agent to exit',
		);
		expect(markedProcesses(server)).toEqual([]);
		expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('old\n');
	});
});
