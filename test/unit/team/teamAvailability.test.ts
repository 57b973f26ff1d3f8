import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentConfig } from '../../../src/core/config/schema.js';
import { selectDefaultTeam } from '../../../src/core/team/buildAgents.js';
import { agentAvailability, teamAvailability } from '../../../src/core/team/teamAvailability.js';
import { loadConfigText } from '../../../src/core/config/loadConfig.js';

const agent = (id: string, backend: Record<string, unknown>, system_message?: string): AgentConfig =>
	({
		id,
		backend: { options: {}, ...backend },
		...(system_message ? { system_message } : {}),
	}) as AgentConfig;

let server: Server;
let upUrl: string;
beforeAll(async () => {
	// A real OpenAI-compatible `/v1/models` on a loopback port: what a local server answers.
	server = createServer((req, res) => {
		res.writeHead(req.url === '/v1/models' ? 200 : 404, { 'content-type': 'application/json' });
		res.end(JSON.stringify({ object: 'list', data: [{ id: 'qwen3:8b', object: 'model' }] }));
	});
	await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
	upUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

describe('agentAvailability: what the Team view says and the default team keeps by', () => {
	const gpt = agent('gpt', { type: 'openai', model: 'gpt-5-mini' }, 'You review code.');

	it('a stored key, an environment key, a .env key, a config key, and no key', async () => {
		const stored = await agentAvailability(gpt, { keys: { secrets: { OPENAI_API_KEY: 'sk-1' }, env: {} } });
		expect(stored).toMatchObject({
			id: 'gpt',
			provider: 'openai',
			model: 'gpt-5-mini',
			role: 'You review code.',
			available: true,
			kind: 'key-stored',
			reason: 'key stored in VS Code (OPENAI_API_KEY)',
			keyVariable: 'OPENAI_API_KEY',
		});
		const env = await agentAvailability(gpt, { keys: { env: { OPENAI_API_KEY: 'sk-2' } } });
		expect(env).toMatchObject({
			available: true,
			kind: 'key-env',
			reason: 'key in the environment (OPENAI_API_KEY)',
		});
		const dotenv = await agentAvailability(gpt, { keys: { env: {}, dotenv: { OPENAI_API_KEY: 'sk-3' } } });
		expect(dotenv.kind).toBe('key-dotenv');
		const inConfig = await agentAvailability(agent('c', { type: 'openai', model: 'm', api_key: 'sk' }), {
			keys: { env: {} },
		});
		expect(inConfig).toMatchObject({ available: true, kind: 'key-config' });
		const missing = await agentAvailability(gpt, { keys: { env: { OPENAI_API_KEY: '  ' } } });
		expect(missing).toMatchObject({
			available: false,
			kind: 'key-missing',
			reason: 'no API key (set OPENAI_API_KEY)',
			keyVariable: 'OPENAI_API_KEY',
		});
	});

	it('names the variable that held a Gemini key (GOOGLE_API_KEY)', async () => {
		const gemini = agent('g', { type: 'gemini', model: 'gemini-2.5-flash' });
		const found = await agentAvailability(gemini, { keys: { env: { GOOGLE_API_KEY: 'k' } } });
		expect(found.reason).toBe('key in the environment (GOOGLE_API_KEY)');
	});

	it('a local server answering on a loopback port, and one that is not', async () => {
		const up = await agentAvailability(
			agent('local', { type: 'ollama', model: 'qwen3:8b', base_url: upUrl }),
			{
				keys: { env: {} },
			},
		);
		expect(up).toMatchObject({
			available: true,
			kind: 'local-up',
			reason: `ollama server answering at ${upUrl}`,
		});
		// A port nothing listens on: the server we just closed.
		const closed = createServer();
		await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
		const downUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/v1`;
		await new Promise<void>((done) => closed.close(() => done()));
		const down = await agentAvailability(agent('local', { type: 'vllm', model: 'm', base_url: downUrl }), {
			keys: { env: {} },
		});
		expect(down).toMatchObject({
			available: false,
			kind: 'local-down',
			reason: `no vllm server at ${downUrl} (start it, or set base_url)`,
		});
	});

	it('vscode_lm: the host decides; outside the host it is unavailable with the reason', async () => {
		const lm = agent('copilot', { type: 'vscode_lm', model: 'gpt-4o' });
		const outside = await agentAvailability(lm, { keys: { env: {} } });
		expect(outside).toMatchObject({ available: false, kind: 'host-missing' });
		expect(outside.reason).toMatch(/only inside VS Code/);
		const inside = await agentAvailability(lm, {
			keys: { env: {} },
			host: () => ({ available: true, reason: 'VS Code model gpt-4o (copilot)' }),
		});
		expect(inside).toMatchObject({ available: true, kind: 'host', reason: 'VS Code model gpt-4o (copilot)' });
		const scripted = await agentAvailability(agent('s', { type: 'scripted', model: 'x' }), {
			keys: { env: {} },
		});
		expect(scripted).toMatchObject({ available: true, kind: 'scripted' });
	});

	it('the default team keeps exactly the agents the view calls available', async () => {
		const text = [
			'agents:',
			'  - id: gpt',
			'    backend: { type: openai, model: gpt-5-mini }',
			'  - id: claude',
			'    backend: { type: claude, model: claude-sonnet-4-5 }',
			'  - id: local',
			`    backend: { type: ollama, model: qwen3:8b, base_url: "${upUrl}" }`,
		].join('\n');
		const config = loadConfigText(text, 'team.yaml').config!;
		const keys = { env: { ANTHROPIC_API_KEY: 'a' } };
		const view = await teamAvailability(config.agents, { keys });
		const selection = await selectDefaultTeam(config, keys, 'team.yaml');
		expect(view.filter((v) => v.available).map((v) => v.id)).toEqual(['claude', 'local']);
		expect(selection.config?.agents.map((a) => a.id)).toEqual(['claude', 'local']);
		expect(selection.dropped).toEqual([{ id: 'gpt', why: view[0]!.reason }]);
	});
});
