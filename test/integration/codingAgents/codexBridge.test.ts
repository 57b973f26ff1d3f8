import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { workflowTools } from '../../../src/core/agents/workflowTools.js';
import type { ModelEvent } from '../../../src/core/providers/spec/model.js';
import {
	codexBridgeName,
	startCodexBridge,
	type CodexBridge,
} from '../../../src/core/providers/codingAgents/codexBridge.js';
import { CodexConversation } from '../../../src/core/providers/codingAgents/codexConversation.js';
import { codexOptions } from '../../../src/core/providers/codingAgents/codexOptions.js';
import { CodexUsage } from '../../../src/core/providers/codingAgents/codexUsage.js';
import { startLoopbackProvider, type LoopbackProvider } from '../../servers/loopbackProvider.js';

/** A model without Codex metadata: its fallback lists MCP tools up front (gpt-5.5 defers them behind tool_search). */
const model = 'loopback-model';

/**
 * The Codex CLI calls our workflow tools over the loopback bridge (streamable HTTP MCP in this
 * process): a call waits in its handler while our turn ends, and the runtime's answer (our wording,
 * an error too) reaches the CLI, which goes on in the same process.
 */
describe('Codex ↔ our tools over the loopback MCP bridge', () => {
	let server: LoopbackProvider;
	let bridge: CodexBridge;
	let scratch: string;
	let codexHome: string;
	beforeEach(async () => {
		server = await startLoopbackProvider('responses');
		let ids = 0;
		bridge = await startCodexBridge(workflowTools(['agent1', 'agent2']), () => `cx_call_${++ids}`);
		scratch = mkdtempSync(join(tmpdir(), 'massgen-codex-scratch-'));
		const base = join(homedir(), '.cache', 'massgen-test');
		mkdirSync(base, { recursive: true });
		codexHome = mkdtempSync(join(base, 'codex-home-'));
	});
	afterEach(async () => {
		await bridge.close();
		await server.close();
		for (const dir of [scratch, codexHome]) rmSync(dir, { recursive: true, force: true });
	});

	async function conversation(): Promise<CodexConversation> {
		const { Codex } = await import('@openai/codex-sdk');
		const { client, thread } = codexOptions({
			settings: {},
			model,
			apiKey: 'loopback-key',
			baseUrl: server.baseUrl,
			hostEnv: { PATH: process.env.PATH, HOME: scratch },
			codexHome,
			cwd: scratch,
			systemPrompt: 'You are agent1 of a team.',
			mcpServers: {},
			bridge: { name: codexBridgeName, url: bridge.url, token: bridge.token },
		});
		return new CodexConversation(new Codex(client).startThread(thread), bridge, new CodexUsage(codexHome));
	}

	const call = (id: string, name: string, args: Record<string, unknown>) => ({
		toolCalls: [{ id, namespace: `mcp__${codexBridgeName}`, name, arguments: args }],
	});

	it('a bridged call ends our turn; the answer goes back to the waiting CLI, which finishes its turn', async () => {
		server.say(call('c_bad', 'vote', { agent_id: 'agent9', reason: 'best' }));
		server.say(call('c_answer', 'new_answer', { content: 'Use a map.' }));
		server.say({ text: 'Submitted.', usage: { input: 50, output: 2 } });
		const events: ModelEvent[] = [];
		const emit = (event: ModelEvent) => events.push(event);
		const signal = new AbortController().signal;
		const codex = await conversation();
		await codex.send('Answer the question.');

		// An id outside the enum reaches our handler (the CLI does not check the schema): our wording goes back.
		const first = await codex.turn(emit, signal);
		expect(first).toMatchObject({ ended: false, calls: [{ id: 'cx_call_1', name: 'vote' }] });
		expect(first.calls[0]!.args).toEqual({ agent_id: 'agent9', reason: 'best' });
		first.calls[0]!.answer('agent9 has no answer; the ids with one: agent1, agent2', true);

		const second = await codex.turn(emit, signal);
		expect(second).toMatchObject({
			ended: false,
			calls: [{ name: 'new_answer', args: { content: 'Use a map.' } }],
		});
		second.calls[0]!.answer('Answer recorded as agent1.1', false);

		const third = await codex.turn(emit, signal);
		expect(third).toEqual({ calls: [], ended: true });
		expect(events.filter((e) => e.type === 'text-delta')).toEqual([
			{ type: 'text-delta', text: 'Submitted.' },
		]);
		// Each step counts the responses it saw (from the CLI's session file), the completion the rest:
		// a turn the run ends while the CLI waits on our call is counted up to there.
		const usage = events.flatMap((e) => (e.type === 'usage' ? [e.usage.outputTokens] : []));
		expect(usage).toEqual([5, 5, 2]);

		expect(server.requests).toHaveLength(3);
		expect(server.requests[1]!.rawBody).toContain('agent9 has no answer; the ids with one: agent1, agent2');
		expect(server.requests[2]!.rawBody).toContain('Answer recorded as agent1.1');
		// The CLI lists the bridge's tools as one namespace, with our enum.
		const tools = (server.requests[0]!.body as { tools: { name?: string; tools?: unknown[] }[] }).tools;
		const ours = tools.find((tool) => tool.name === `mcp__${codexBridgeName}`);
		expect(JSON.stringify(ours)).toContain('"enum":["agent1","agent2"]');
		expect(events.find((e) => e.type === 'reasoning-delta')).toMatchObject({
			text: expect.stringContaining('Model metadata for `loopback-model` not found'),
		});
	});

	it('after its turn ended, new input resumes the same thread (a new CLI process with the history)', async () => {
		server.say({ text: 'First answer.' });
		server.say({ text: 'Second answer.' });
		const events: ModelEvent[] = [];
		const signal = new AbortController().signal;
		const codex = await conversation();
		await codex.send('The question.');
		expect(await codex.turn((e) => events.push(e), signal)).toEqual({ calls: [], ended: true });
		await codex.send('UPDATE: a new answer arrived.');
		expect(await codex.turn((e) => events.push(e), signal)).toEqual({ calls: [], ended: true });
		expect(
			events.filter((e) => e.type === 'text-delta').map((e) => e.type === 'text-delta' && e.text),
		).toEqual(['First answer.', 'Second answer.']);
		expect(server.requests).toHaveLength(2);
		const second = server.requests[1]!.rawBody;
		for (const text of ['The question.', 'First answer.', 'UPDATE: a new answer arrived.']) {
			expect(second).toContain(text);
		}
	});

	it('answers only requests with the run token', async () => {
		const initialize = {
			jsonrpc: '2.0',
			id: 1,
			method: 'initialize',
			params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
		};
		const post = (headers: Record<string, string>) =>
			fetch(bridge.url, {
				method: 'POST',
				headers: {
					'content-type': 'application/json',
					accept: 'application/json, text/event-stream',
					...headers,
				},
				body: JSON.stringify(initialize),
			});
		expect((await post({})).status).toBe(401);
		expect((await post({ authorization: 'Bearer wrong' })).status).toBe(401);
		const ok = await post({ authorization: `Bearer ${bridge.token}` });
		expect(ok.status).toBe(200);
		expect(await ok.text()).toContain(`"name":"${codexBridgeName}"`);
	});
});
