import { spawn } from 'node:child_process';
import {
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	readdirSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
	createSdkMcpServer,
	query,
	tool,
	type Options,
	type SDKMessage,
} from '@anthropic-ai/claude-agent-sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { workflowTools } from '../../../src/core/agents/workflowTools.js';
import { claudeCodeOptions } from '../../../src/core/providers/codingAgents/claudeCodeOptions.js';
import { startLoopbackProvider, type LoopbackProvider } from '../../servers/loopbackProvider.js';
import { waitFor } from '../../support/waitFor.js';

/** The Claude Code version this spike ran (the SDK's platform package, pinned in the lock file). */
const testedCliVersion = '2.1.333';
const loopbackKey = 'loopback-anthropic-key';

/**
 * Issue 14's spike: the Claude Code CLI, started by the official Agent SDK, runs its own agent
 * loop against our loopback Anthropic server (no network, no login) and calls a workflow tool of
 * ours served in-process by the SDK's MCP server. Nothing here is our adapter yet: it proves the
 * parts the adapter will stand on.
 */
describe('Claude Code offline through @anthropic-ai/claude-agent-sdk', () => {
	let server: LoopbackProvider;
	let scratch: string;
	let home: string;
	beforeEach(async () => {
		server = await startLoopbackProvider('anthropic');
		scratch = mkdtempSync(join(tmpdir(), 'massgen-cc-scratch-'));
		home = mkdtempSync(join(tmpdir(), 'massgen-cc-home-'));
	});
	afterEach(async () => {
		await server.close();
		rmSync(scratch, { recursive: true, force: true });
		rmSync(home, { recursive: true, force: true });
	});

	/** Only what the CLI needs: the environment replaces the parent's, so no key or login of the host leaks in. */
	function cliEnv(): Record<string, string> {
		return {
			PATH: process.env.PATH ?? '',
			HOME: home,
			CLAUDE_CONFIG_DIR: join(home, '.claude'),
			ANTHROPIC_BASE_URL: server.baseUrl,
			ANTHROPIC_API_KEY: loopbackKey,
			CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
			DISABLE_TELEMETRY: '1',
			DISABLE_AUTOUPDATER: '1',
			DISABLE_ERROR_REPORTING: '1',
		};
	}

	it("the CLI's agent loop edits a file in its folder and calls our in-process MCP new_answer", async () => {
		writeFileSync(join(scratch, 'a.txt'), 'old\n');
		const answers: { content: string }[] = [];
		const newAnswer = tool(
			'new_answer',
			'Submit a new and improved answer',
			{ content: z.string() },
			async (args) => {
				answers.push(args);
				return { content: [{ type: 'text', text: 'Answer recorded as agent1.1' }] };
			},
		);
		const workflow = createSdkMcpServer({ name: 'massgen', version: '1.0.0', tools: [newAnswer] });
		const edit = { file_path: join(scratch, 'hello.txt'), content: 'hello from claude code\n' };
		server.say({
			toolCalls: [{ id: 'toolu_write', name: 'Write', arguments: edit }],
			usage: { input: 40, output: 9 },
		});
		server.say({
			toolCalls: [
				{ id: 'toolu_answer', name: 'mcp__massgen__new_answer', arguments: { content: 'Added hello.txt' } },
			],
			usage: { input: 60, output: 7 },
		});
		server.say({ text: 'Submitted.', usage: { input: 80, output: 3 } });

		// A repository's own Claude settings that would auto-allow Write and run a hook: never read.
		mkdirSync(join(scratch, '.claude'));
		const hookMarker = join(scratch, 'hook-ran');
		writeFileSync(
			join(scratch, '.claude', 'settings.json'),
			JSON.stringify({
				permissions: { allow: ['Write'] },
				hooks: {
					PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: `touch ${hookMarker}` }] }],
				},
			}),
		);

		const asked: string[] = [];
		const messages: SDKMessage[] = [];
		const options = claudeCodeOptions({
			settings: { allowed_tools: ['Read', 'Write', 'Edit'] },
			model: 'claude-sonnet-4-5',
			apiKey: loopbackKey,
			baseUrl: server.baseUrl,
			hostEnv: { PATH: process.env.PATH, HOME: home, CLAUDE_CONFIG_DIR: join(home, '.claude') },
			cwd: scratch,
			systemPrompt: 'You are agent1 of a team. End your turn with new_answer or vote.',
			mcpServers: { massgen: workflow },
			canUseTool: async (name, input) => {
				asked.push(name);
				return { behavior: 'allow', updatedInput: input };
			},
			abortController: new AbortController(),
		});
		for await (const message of query({
			prompt: 'Add hello.txt, then submit your answer with new_answer.',
			options,
		})) {
			messages.push(message);
		}

		const init = messages.find((m) => m.type === 'system' && m.subtype === 'init');
		expect(init).toMatchObject({
			claude_code_version: testedCliVersion,
			cwd: scratch,
			tools: ['Edit', 'Read', 'Write', 'mcp__massgen__new_answer'],
			mcp_servers: [{ name: 'massgen', status: 'connected' }],
		});
		expect(readFileSync(join(scratch, 'hello.txt'), 'utf8')).toBe(edit.content);
		expect(readFileSync(join(scratch, 'a.txt'), 'utf8')).toBe('old\n');
		expect(answers).toEqual([{ content: 'Added hello.txt' }]);
		// Every call was asked (the repository's allow rule was not read), and its hook never ran.
		expect(asked).toEqual(['Write', 'mcp__massgen__new_answer']);
		expect(existsSync(hookMarker)).toBe(false);
		const result = messages.at(-1);
		expect(result).toMatchObject({ type: 'result', subtype: 'success', result: 'Submitted.' });
		expect(result).toMatchObject({ usage: { input_tokens: 180, output_tokens: 19 } });

		// The request log: exactly the three scripted calls, to our server, with our key and tools.
		expect(server.pending()).toBe(0);
		expect(server.unexpected).toBe(0);
		expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(Array(3).fill('POST /v1/messages'));
		for (const request of server.requests) {
			expect(request.headers['x-api-key']).toBe(loopbackKey);
			expect(request.prompt.system).toContain('You are agent1 of a team.');
			expect(request.model).toBe('claude-sonnet-4-5');
			const names = (request.body as { tools: { name: string }[] }).tools.map((t) => t.name);
			expect(names.sort()).toEqual(['Edit', 'Read', 'Write', 'mcp__massgen__new_answer']);
		}
		expect(server.requests[1]!.prompt.lastToolResult).toContain('File created successfully');
		// Our tool's result went back to the model (as MCP content blocks).
		expect(server.requests[2]!.rawBody).toContain('Answer recorded as agent1.1');
		expect(server.requests[1]!.rawBody).not.toContain('Answer recorded');
	});

	it('a tool call canUseTool denies never runs, and the model is told why', async () => {
		const target = join(scratch, 'denied.txt');
		server.say({
			toolCalls: [{ id: 'toolu_write', name: 'Write', arguments: { file_path: target, content: 'x\n' } }],
			usage: { input: 40, output: 9 },
		});
		server.say({ text: 'Understood.', usage: { input: 50, output: 2 } });
		const messages: SDKMessage[] = [];
		for await (const message of query({
			prompt: 'Write denied.txt.',
			options: {
				cwd: scratch,
				model: 'claude-sonnet-4-5',
				tools: ['Write'],
				permissionMode: 'default',
				settingSources: [],
				persistSession: false,
				canUseTool: async () => ({
					behavior: 'deny',
					message: 'denied by the permission engine (test rule)',
				}),
				env: cliEnv(),
			},
		})) {
			messages.push(message);
		}
		expect(existsSync(target)).toBe(false);
		expect(server.requests).toHaveLength(2);
		expect(server.requests[1]!.prompt.lastToolResult).toContain(
			'denied by the permission engine (test rule)',
		);
		expect(messages.at(-1)).toMatchObject({ type: 'result', subtype: 'success', result: 'Understood.' });
	});

	it('our workflow tool definitions (JSON Schema) serve as SDK MCP tools: the enum reaches the model, and the SDK checks it', async () => {
		const calls: unknown[] = [];
		const tools = workflowTools(['agent1', 'agent2']).map((definition) => {
			const schema = z.fromJSONSchema(definition.parameters) as z.ZodObject;
			return tool(definition.name, definition.description, schema.shape, async (args) => {
				calls.push({ name: definition.name, args });
				return { content: [{ type: 'text', text: 'Vote recorded' }] };
			});
		});
		const workflow = createSdkMcpServer({ name: 'massgen', version: '1.0.0', tools });
		const vote = (agent_id: string, id: string) => ({
			toolCalls: [{ id, name: 'mcp__massgen__vote', arguments: { agent_id, reason: 'clearest' } }],
			usage: { input: 40, output: 9 },
		});
		server.say(vote('agent9', 'toolu_bad'));
		server.say(vote('agent2', 'toolu_good'));
		server.say({ text: 'Voted.', usage: { input: 50, output: 2 } });
		const options = claudeCodeOptions({
			settings: { allowed_tools: [] },
			model: 'claude-sonnet-4-5',
			apiKey: loopbackKey,
			baseUrl: server.baseUrl,
			hostEnv: { PATH: process.env.PATH, HOME: home, CLAUDE_CONFIG_DIR: join(home, '.claude') },
			cwd: scratch,
			systemPrompt: 'Vote.',
			mcpServers: { massgen: workflow },
			canUseTool: async (_name, input) => ({ behavior: 'allow', updatedInput: input }),
			abortController: new AbortController(),
		});
		for await (const message of query({ prompt: 'Vote for the best answer.', options })) void message;

		const sent = (server.requests[0]!.body as { tools: { name: string; input_schema: unknown }[] }).tools;
		expect(sent.map((t) => t.name).sort()).toEqual(['mcp__massgen__new_answer', 'mcp__massgen__vote']);
		expect(sent.find((t) => t.name === 'mcp__massgen__vote')!.input_schema).toMatchObject({
			properties: { agent_id: { enum: ['agent1', 'agent2'] } },
			required: ['agent_id', 'reason'],
		});
		// An id outside the enum never reaches our handler: the model gets the SDK's validation error.
		expect(calls).toEqual([{ name: 'vote', args: { agent_id: 'agent2', reason: 'clearest' } }]);
		expect(server.requests[1]!.rawBody).toContain('agent9');
		expect(server.requests[1]!.rawBody).toMatch(/is_error"?\s*:\s*true/);
	});

	it('the failures the adapter must report early: a missing CLI, no login, a refused key', async () => {
		const launch = (env: Record<string, string>, extra: Partial<Options> = {}) =>
			query({
				prompt: 'hi',
				options: { cwd: scratch, tools: [], settingSources: [], persistSession: false, env, ...extra },
			});
		const drain = async (run: AsyncIterable<SDKMessage>, onMessage?: (m: SDKMessage) => void) => {
			for await (const message of run) onMessage?.(message);
		};
		const { ANTHROPIC_API_KEY: _key, ...noKey } = cliEnv();

		// A CLI that is not there: the SDK throws before starting anything.
		await expect(
			drain(launch(cliEnv(), { pathToClaudeCodeExecutable: join(home, 'no-such-claude') })),
		).rejects.toThrow(/Claude Code native binary not found at .*no-such-claude/);

		// No key and no login: one error result, and no request leaves the machine.
		await expect(drain(launch(noKey))).rejects.toThrow('Not logged in · Please run /login');
		expect(server.requests).toHaveLength(0);

		// A refused key: the CLI retries it like a server error (up to 10 times, backing off), and an
		// abort only closes its stdin first (a grace of about 2 s, in which it may retry again), so the
		// adapter must end the turn itself at the first authentication_failed retry notice.
		server.enqueue({ status: 401, message: 'invalid x-api-key' });
		const abortController = new AbortController();
		const retries: SDKMessage[] = [];
		await expect(
			drain(launch(cliEnv(), { abortController }), (message) => {
				if (message.type === 'system' && message.subtype === 'api_retry') {
					retries.push(message);
					abortController.abort();
				}
			}),
		).rejects.toThrow(/abort/i);
		expect(retries[0]).toMatchObject({
			attempt: 1,
			max_retries: 10,
			error_status: 401,
			error: 'authentication_failed',
		});
		expect(server.requests[0]!.headers['x-api-key']).toBe(loopbackKey);
	});

	it('cancel mid-tool: the CLI ends its tool processes, which live outside its process group', async () => {
		// Claude Code refuses a bare `sleep`; a node timer is a long-running command it accepts.
		const command = 'node -e "setTimeout(() => {}, 600000)"';
		server.say({
			toolCalls: [{ id: 'toolu_bash', name: 'Bash', arguments: { command, description: 'wait' } }],
			usage: { input: 40, output: 9 },
		});
		const abort = new AbortController();
		let cliPid = 0;
		let treeAtAbort: Proc[] = [];
		const running = query({
			prompt: 'Run the long command.',
			options: {
				cwd: scratch,
				model: 'claude-sonnet-4-5',
				tools: ['Bash'],
				permissionMode: 'default',
				settingSources: [],
				persistSession: false,
				abortController: abort,
				canUseTool: async (_name, input) => {
					// Cancel once the command runs (found by its arguments in the CLI's process tree).
					void waitFor(
						() => descendants(cliPid).some((p) => p.cmdline.includes('600000')),
						"the Bash tool's sleep 600000 in the CLI's process tree",
					).then(() => {
						treeAtAbort = descendants(cliPid);
						abort.abort();
					});
					return { behavior: 'allow', updatedInput: input };
				},
				// Spawned the way the adapter will: in a process group of its own.
				spawnClaudeCodeProcess: (spec) => {
					const child = spawn(spec.command, spec.args, {
						cwd: spec.cwd,
						env: spec.env,
						stdio: ['pipe', 'pipe', 'ignore'],
						detached: true,
					});
					cliPid = child.pid!;
					return child;
				},
				env: cliEnv(),
			},
		});
		await expect(async () => {
			for await (const _message of running) void _message;
		}).rejects.toThrow(/abort/i);

		const tool = treeAtAbort.find((p) => p.cmdline.includes('600000'));
		expect(tool).toBeDefined();
		// The Bash tool runs in its own session: killing the CLI's process group alone would miss it.
		expect(tool!.pgid).not.toBe(cliPid);
		await waitFor(
			() => treeAtAbort.every((p) => !alive(p.pid)) && !alive(cliPid),
			'the CLI and its tool processes to exit',
		);
		expect(treeAtAbort.filter((p) => alive(p.pid))).toEqual([]);
	});
});

interface Proc {
	readonly pid: number;
	readonly ppid: number;
	readonly pgid: number;
	readonly cmdline: string;
}

/** Linux `/proc`: every process whose parent chain reaches `root`. */
function descendants(root: number): Proc[] {
	const all: Proc[] = [];
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
			// Fields after the command name (which may hold spaces) in parentheses.
			const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
			const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
			all.push({ pid: Number(entry), ppid: Number(fields[1]), pgid: Number(fields[2]), cmdline });
		} catch {
			// The process ended while we read it.
		}
	}
	const tree = new Set([root]);
	for (let grown = true; grown;) {
		grown = false;
		for (const p of all) {
			if (!tree.has(p.pid) && tree.has(p.ppid)) {
				tree.add(p.pid);
				grown = true;
			}
		}
	}
	return all.filter((p) => p.pid !== root && tree.has(p.pid));
}

function alive(pid: number): boolean {
	try {
		const state = readFileSync(`/proc/${pid}/stat`, 'utf8');
		return state.slice(state.lastIndexOf(')') + 2, state.lastIndexOf(')') + 3) !== 'Z';
	} catch {
		return false;
	}
}
