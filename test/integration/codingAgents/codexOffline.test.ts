import {
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import type { ThreadEvent, ThreadItem } from '@openai/codex-sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { codexOptions, type CodexLaunch } from '../../../src/core/providers/codingAgents/codexOptions.js';
import { logLines, stdioServerSpec } from '../../servers/mcp/launch.js';
import { startLoopbackProvider, type LoopbackProvider } from '../../servers/loopbackProvider.js';
import { customToolCall, localShellCall } from './codexWire.js';

/** The Codex CLI version this spike ran (`@openai/codex`, pinned in the lock file, as the SDK pins it). */
const testedCliVersion = '0.163.0';
const loopbackKey = 'loopback-openai-key';
/** A model the CLI knows: its metadata gives it the `apply_patch` tool (unknown ones get a fallback without it). */
const model = 'gpt-5.5';

/**
 * Issue 14's spike: the Codex CLI, started by the official SDK (`codex exec --experimental-json`),
 * runs its own agent loop against our loopback Responses server over plain HTTP SSE (no network,
 * no login), edits files in its folder with its own tools and calls a tool of our stdio MCP test
 * server, which records the call. Nothing here is our adapter yet: it proves the parts it needs.
 */
describe('Codex offline through @openai/codex-sdk', () => {
	let server: LoopbackProvider;
	let scratch: string;
	let home: string;
	let codexHome: string;
	let outside: string;
	beforeEach(async () => {
		server = await startLoopbackProvider('responses');
		scratch = mkdtempSync(join(tmpdir(), 'massgen-codex-scratch-'));
		home = mkdtempSync(join(tmpdir(), 'massgen-codex-home-'));
		// Codex installs its sandbox helper in CODEX_HOME and refuses to under the temp folder.
		const base = join(homedir(), '.cache', 'massgen-test');
		mkdirSync(base, { recursive: true });
		codexHome = mkdtempSync(join(base, 'codex-home-'));
		expect(codexHome.startsWith(tmpdir() + sep)).toBe(false);
		outside = mkdtempSync(join(base, 'outside-'));
	});
	afterEach(async () => {
		await server.close();
		for (const dir of [scratch, home, codexHome, outside]) rmSync(dir, { recursive: true, force: true });
	});

	function launch(overrides: Partial<CodexLaunch> = {}): CodexLaunch {
		const spec = stdioServerSpec('tools', { log: join(home, 'mcp.log') });
		if (spec.type !== 'stdio' || spec.command === undefined) throw new Error('expected a stdio spec');
		return {
			settings: {},
			model,
			apiKey: loopbackKey,
			baseUrl: server.baseUrl,
			hostEnv: { PATH: process.env.PATH, HOME: home },
			codexHome,
			cwd: scratch,
			systemPrompt: 'You are agent1 of a team. End your turn with new_answer or vote.',
			mcpServers: { tools: { command: spec.command, args: spec.args, env: spec.env } },
			...overrides,
		};
	}

	async function run(options: CodexLaunch, prompt: string, signal?: AbortSignal): Promise<ThreadEvent[]> {
		const { Codex } = await import('@openai/codex-sdk');
		const { client, thread } = codexOptions(options);
		const { events } = await new Codex(client).startThread(thread).runStreamed(prompt, { signal });
		const seen: ThreadEvent[] = [];
		for await (const event of events) seen.push(event);
		return seen;
	}

	const completed = (events: ThreadEvent[]): ThreadItem[] =>
		events.flatMap((e) => (e.type === 'item.completed' ? [e.item] : []));

	it("the CLI's agent loop patches files and calls our MCP tool; its shell is gone, so a command call never runs", async () => {
		writeFileSync(join(scratch, 'a.txt'), 'old\n');
		const patch = [
			'*** Begin Patch',
			'*** Add File: hello.txt',
			'+hello from codex',
			'*** Update File: a.txt',
			'@@',
			'-old',
			'+new',
			'*** End Patch',
			'',
		].join('\n');
		server.enqueue({ events: customToolCall('call_patch', 'apply_patch', patch, model) });
		const command = `cp hello.txt copy.txt; echo x > ${join(outside, 'escaped.txt')}`;
		server.say({ toolCalls: [{ id: 'call_cmd', name: 'exec_command', arguments: { cmd: command } }] });
		server.say({
			toolCalls: [
				{ id: 'call_mcp', namespace: 'mcp__tools', name: 'note', arguments: { text: 'from codex' } },
			],
		});
		server.say({ text: 'Done.', usage: { input: 80, output: 3 } });

		const events = await run(launch(), 'Add hello.txt, copy it, then note it.');

		expect(readFileSync(join(scratch, 'hello.txt'), 'utf8')).toBe('hello from codex\n');
		expect(readFileSync(join(scratch, 'a.txt'), 'utf8')).toBe('new\n');
		// No shell: neither the copy in its folder nor the write outside happened.
		expect(existsSync(join(scratch, 'copy.txt'))).toBe(false);
		expect(existsSync(join(outside, 'escaped.txt'))).toBe(false);
		expect(logLines(join(home, 'mcp.log'))).toContain('call note from codex');

		const items = completed(events);
		expect(items.find((i) => i.type === 'file_change')).toMatchObject({
			status: 'completed',
			changes: expect.arrayContaining([
				{ path: join(scratch, 'hello.txt'), kind: 'add' },
				{ path: join(scratch, 'a.txt'), kind: 'update' },
			]),
		});
		expect(items.find((i) => i.type === 'mcp_tool_call')).toMatchObject({
			server: 'tools',
			tool: 'note',
			status: 'completed',
			result: { content: [{ type: 'text', text: 'noted: from codex' }] },
		});
		expect(items.at(-1)).toMatchObject({ type: 'agent_message', text: 'Done.' });
		expect(events.at(-1)).toMatchObject({ type: 'turn.completed', usage: { output_tokens: 9 + 5 + 5 + 3 } });

		// The request log: exactly the four scripted calls, to our server, with our key, prompt and tools.
		expect(server.pending()).toBe(0);
		expect(server.unexpected).toBe(0);
		expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(Array(4).fill('POST /v1/responses'));
		for (const request of server.requests) {
			expect(request.headers['authorization']).toBe(`Bearer ${loopbackKey}`);
			expect(request.headers['user-agent']).toContain(`codex_exec; ${testedCliVersion}`);
			expect(request.model).toBe(model);
			expect(request.rawBody).toContain('You are agent1 of a team.');
			const tools = (request.body as { tools: { type: string; name?: string; tools?: { name: string }[] }[] })
				.tools;
			const names = tools.map((t) => t.name ?? t.type);
			// All it is offered: no shell (exec_command, write_stdin, shell…), web search, sub-agents,
			// goals or view_image — our switches reached the CLI. This model's metadata defers MCP tools
			// behind `tool_search`; a call by namespace and name works without a search (the third reply).
			expect(names.sort()).toEqual([
				'apply_patch',
				// Resources of our MCP servers (the only ones it has).
				'list_mcp_resource_templates',
				'list_mcp_resources',
				'read_mcp_resource',
				'request_user_input',
				'tool_search',
			]);
		}
		expect(server.requests[1]!.rawBody).toContain('"custom_tool_call_output"');
		// What the CLI answered the command call: it has no such tool.
		expect(server.requests[2]!.prompt.lastToolResult).toBe('unsupported call: exec_command');
		expect(items.filter((i) => i.type === 'command_execution')).toEqual([]);
		expect(server.requests[3]!.rawBody).toContain('noted: from codex');
		// The user's config folder was never used: the CLI kept to its private CODEX_HOME.
		expect(existsSync(join(home, '.codex'))).toBe(false);
		expect(existsSync(join(codexHome, 'config.toml'))).toBe(false);
		// Nor did it start a login shell to snapshot (it has no shell to prepare).
		expect(existsSync(join(codexHome, 'shell_snapshots'))).toBe(false);
	});

	it('a patch outside its folder is refused (no approval is asked), and the model is told', async () => {
		const target = join(outside, 'patched.txt');
		const patch = ['*** Begin Patch', `*** Add File: ${target}`, '+escaped', '*** End Patch', ''].join('\n');
		server.enqueue({ events: customToolCall('call_patch', 'apply_patch', patch, model) });
		server.say({ text: 'Understood.' });
		await run(launch(), 'Patch a file outside.');
		expect(existsSync(target)).toBe(false);
		expect(server.requests).toHaveLength(2);
		expect(server.requests[1]!.rawBody).toContain('"custom_tool_call_output"');
		expect(server.requests[1]!.rawBody).toContain(
			'patch rejected: writing outside of the project; rejected by user approval settings',
		);
	});

	it('a missing key is one clear error before any request; a missing CLI fails to start', async () => {
		const { Codex } = await import('@openai/codex-sdk');
		const { client, thread } = codexOptions(launch({ apiKey: undefined }));
		const { events: stream } = await new Codex(client).startThread(thread).runStreamed('hi');
		const events: ThreadEvent[] = [];
		await expect(async () => {
			for await (const event of stream) events.push(event);
		}).rejects.toThrow(/Codex Exec exited with code 1/);
		expect(events.find((e) => e.type === 'turn.failed')).toMatchObject({
			error: { message: 'Missing environment variable: `OPENAI_API_KEY`.' },
		});
		expect(server.requests).toHaveLength(0);

		const missing = launch({ settings: { cli_path: join(home, 'no-such-codex') } });
		await expect(run(missing, 'hi')).rejects.toThrow(/ENOENT/);
		expect(server.requests).toHaveLength(0);
	});

	it('no shell: every command call of its own (function or native item) is refused and nothing runs', async () => {
		const marker = (name: string) => join(outside, name);
		const calls: [string, Record<string, unknown>][] = [
			['exec_command', { cmd: `touch ${marker('exec')}` }],
			['shell', { command: ['touch', marker('shell')] }],
			['shell_command', { command: `touch ${marker('shell_command')}` }],
			['local_shell', { command: ['touch', marker('local_shell')] }],
			['write_stdin', { session_id: 1, chars: `touch ${marker('stdin')}\n` }],
		];
		for (const [index, [name, args]] of calls.entries()) {
			server.say({ toolCalls: [{ id: `call_${index}`, name, arguments: args }] });
		}
		// The API's own local_shell item: the CLI drops it, and its turn ends there.
		server.enqueue({ events: localShellCall('call_native', ['touch', marker('native')], model) });

		const events = await run(launch(), 'Run the commands.');

		expect(readdirSync(outside)).toEqual([]);
		expect(completed(events).filter((item) => item.type === 'command_execution')).toEqual([]);
		expect(server.pending()).toBe(0);
		expect(server.requests).toHaveLength(calls.length + 1);
		// What the CLI answered each call, in the next request.
		for (const [index, [name]] of calls.entries()) {
			expect(server.requests[index + 1]!.prompt.lastToolResult).toBe(`unsupported call: ${name}`);
		}
		expect(events.at(-1)).toMatchObject({ type: 'turn.completed' });
	});
});
