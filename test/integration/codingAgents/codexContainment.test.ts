import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeWorkspaceDir } from '../../fakes/team.js';
import { startLoopbackProvider, type LoopbackProvider } from '../../servers/loopbackProvider.js';
import { runCli } from '../cli/cliProcess.js';

const key = 'loopback-openai-key';
const model = 'gpt-5.5';
/** A command that writes (not low risk, so the engine asks); its output shows whether it ran. */
const command = 'echo ran > proof.txt && cat proof.txt';

function runFile(root: string, name: string): Record<string, unknown>[] {
	const runs = join(root, '.massgen', 'runs');
	const text = readFileSync(join(runs, readdirSync(runs)[0]!, name), 'utf8');
	return text
		.split('\n')
		.filter(Boolean)
		.map((line) => JSON.parse(line));
}

/**
 * Issue 14: a codex agent runs no command the user did not allow. Its own shell is gone, so a
 * command goes only through our bridged `run_command`: the permission engine, the user's answer
 * (here the CLI's `--yes` / no terminal) and the command sandbox decide, as for every agent.
 */
describe('a codex agent runs only the commands the user allows (dist/cli.js)', () => {
	let server: LoopbackProvider;
	beforeEach(async () => {
		server = await startLoopbackProvider('responses', { auto: { name: 'codex' } });
	});
	afterEach(async () => {
		await server.close();
	});

	function team(permissions?: string): string {
		const root = makeWorkspaceDir({ 'a.txt': 'old\n' });
		const lines = [
			'agent:',
			'  backend:',
			'    type: codex',
			`    model: ${model}`,
			`    base_url: ${server.baseUrl}`,
		];
		lines.push('    enable_command_execution: true', ...(permissions ? [permissions] : []), '');
		writeFileSync(join(root, 'team.yaml'), lines.join('\n'));
		return root;
	}

	async function run(root: string, ...flags: string[]) {
		return runWith({}, root, ...flags);
	}

	async function runWith(env: Record<string, string>, root: string, ...flags: string[]) {
		const xdg = mkdtempSync(join(tmpdir(), 'massgen-xdg-'));
		const result = await runCli(
			['run', ...flags, '--trust-workspace', '--config', join(root, 'team.yaml'), 'Check a.txt.'],
			{
				cwd: root,
				env: { OPENAI_API_KEY: key, XDG_CONFIG_HOME: xdg, ...env },
			},
		);
		expect(result.code).toBe(0);
		return result;
	}

	const runCommand = (id: string, line: string) => ({
		toolCalls: [{ id, namespace: 'mcp__massgen', name: 'run_command', arguments: { command: line } }],
	});

	it('its own shell calls never run: the CLI answers that it has no such tool, and the lane shows no command', async () => {
		const root = team();
		server.say({ toolCalls: [{ id: 'call_exec', name: 'exec_command', arguments: { cmd: command } }] });
		server.say({
			toolCalls: [{ id: 'call_shell', name: 'shell', arguments: { command: ['cat', 'a.txt'] } }],
		});
		await run(root, '--yes');
		expect(server.requests[1]!.prompt.lastToolResult).toBe('unsupported call: exec_command');
		expect(server.requests[2]!.prompt.lastToolResult).toBe('unsupported call: shell');
		const events = runFile(root, 'events.jsonl');
		expect(events.filter((event) => event.type === 'tool-call' && event['name'] === 'run_command')).toEqual(
			[],
		);
		const lane = events
			.map((event) => (event.type === 'reasoning-delta' ? String(event['text']) : ''))
			.join('');
		expect(lane).not.toContain('[command ');
		// Its tools as the model saw them: apply_patch and ours, no shell.
		const tools = (server.requests[0]!.body as { tools: { name?: string; type: string }[] }).tools;
		expect(tools.map((tool) => tool.name ?? tool.type)).not.toEqual(
			expect.arrayContaining([expect.stringMatching(/exec_command|write_stdin|^shell/)]),
		);
	});

	it('a command through run_command with no terminal to ask on is denied and never runs', async () => {
		const root = team();
		server.say(runCommand('call_cmd', command));
		await run(root);
		const answered = server.requests[1]!.prompt.lastToolResult;
		expect(answered).toContain('run_command: denied');
		expect(answered).not.toContain('ran');
		expect(runFile(root, 'permissions.jsonl')).toEqual([
			expect.objectContaining({ tool: 'run_command', target: command, decision: 'deny' }),
		]);
	});

	it('a deny rule refuses it even with --yes; allowed, it runs in the command sandbox and its output resumes the turn', async () => {
		const denied = team('permissions: { deny: ["command(echo *)"] }');
		server.say(runCommand('call_denied', command));
		await run(denied, '--yes');
		expect(server.requests[1]!.prompt.lastToolResult).toContain('run_command: denied');
		expect(runFile(denied, 'permissions.jsonl')).toEqual([
			expect.objectContaining({ target: command, decision: 'deny', via: 'rule' }),
		]);

		const allowed = team();
		const before = server.requests.length;
		server.say(runCommand('call_allowed', command));
		await run(allowed, '--yes');
		// The CLI's next request, in the same turn, carries the command's output.
		expect(server.requests[before + 1]!.prompt.lastToolResult).toMatch(/exit code 0[^]*\nran$/);
		expect(runFile(allowed, 'permissions.jsonl')).toEqual([
			expect.objectContaining({ target: command, decision: 'allow' }),
		]);
	});

	it('where bubblewrap cannot start, the CLI runs as a plain process and the lane says so once; it still has no shell', async () => {
		const root = team();
		server.say({ toolCalls: [{ id: 'call_exec', name: 'exec_command', arguments: { cmd: command } }] });
		await runWith({ MASSGEN_BWRAP_PATH: '/nonexistent/bwrap' }, root, '--yes');
		expect(server.requests[1]!.prompt.lastToolResult).toBe('unsupported call: exec_command');
		const notes = runFile(root, 'events.jsonl').filter(
			(event) =>
				event.type === 'reasoning-delta' && String(event['text']).includes('no bubblewrap sandbox here'),
		);
		expect(notes).toEqual([
			expect.objectContaining({ text: expect.stringContaining('the Codex CLI runs as a plain process') }),
		]);
	});
});
