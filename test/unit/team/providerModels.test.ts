import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	curatedModels,
	findLocalServers,
	listProviderModels,
} from '../../../src/core/team/providerModels.js';

// One loopback server speaking each provider's model-list route, as the official SDKs call it.
const seen: { url: string; auth: string }[] = [];
let server: Server;
let root: string;
const routes: Record<string, unknown> = {
	'/v1/models': {
		object: 'list',
		data: [
			{ id: 'gpt-5-mini', object: 'model' },
			{ id: 'text-embedding-3-small', object: 'model' },
			{ id: 'gpt-4o-realtime-preview', object: 'model' },
			{ id: 'o4-mini', object: 'model' },
		],
	},
	'/anthropic/v1/models': {
		data: [
			{ id: 'claude-haiku-4-5', type: 'model', display_name: 'Haiku', created_at: '2025-01-01T00:00:00Z' },
		],
		has_more: false,
		first_id: 'claude-haiku-4-5',
		last_id: 'claude-haiku-4-5',
	},
	'/gemini/v1beta/models': {
		models: [
			{ name: 'models/gemini-2.5-flash', supportedGenerationMethods: ['generateContent', 'countTokens'] },
			{ name: 'models/text-embedding-004', supportedGenerationMethods: ['embedContent'] },
		],
	},
	'/local/v1/models': { object: 'list', data: [{ id: 'qwen3:8b' }, { id: 'llama3.2' }] },
};
const auth = (req: IncomingMessage) =>
	String(req.headers['authorization'] ?? req.headers['x-api-key'] ?? req.headers['x-goog-api-key'] ?? '');

beforeAll(async () => {
	server = createServer((req, res) => {
		const path = (req.url ?? '').split('?')[0]!;
		seen.push({ url: path, auth: auth(req) });
		if (path.startsWith('/hang')) return; // never answers
		const body = routes[path];
		res.writeHead(body ? 200 : 500, { 'content-type': 'application/json' });
		res.end(JSON.stringify(body ?? { error: { message: 'boom sk-secret' } }));
	});
	await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
	root = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
	server.closeAllConnections();
	return new Promise<void>((done) => server.close(() => done()));
});

describe('listProviderModels: the provider lists its models through its official SDK', () => {
	it('OpenAI: chat models only, with the key sent to that server', async () => {
		const list = await listProviderModels('openai', 'sk-openai', `${root}/v1`);
		expect(list).toEqual({ models: ['gpt-5-mini', 'o4-mini'], from: 'api' });
		expect(seen.find((s) => s.url === '/v1/models')?.auth).toBe('Bearer sk-openai');
	});

	it('Anthropic and Gemini', async () => {
		expect(await listProviderModels('claude', 'sk-ant', `${root}/anthropic`)).toEqual({
			models: ['claude-haiku-4-5'],
			from: 'api',
		});
		expect(await listProviderModels('gemini', 'g-key', `${root}/gemini`)).toEqual({
			models: ['gemini-2.5-flash'],
			from: 'api',
		});
	});

	it('a failing API gives the curated list and its status, never the error text', async () => {
		const list = await listProviderModels('openai', 'sk', `${root}/broken/v1`);
		expect(list).toEqual({
			models: curatedModels['openai'],
			from: 'curated',
			note: 'the model list failed (HTTP 500)',
		});
	});

	it('a server that never answers gives the curated list once the time box ends', async () => {
		const list = await listProviderModels('claude', 'sk', `${root}/hang`, 300);
		expect(list).toEqual({
			models: curatedModels['claude'],
			from: 'curated',
			note: 'no answer within 0.3 s',
		});
	});
});

describe('findLocalServers: the usual ports, with the models each server has', () => {
	it('keeps the servers that answer, with their model lists', async () => {
		const found = await findLocalServers({ ollama: `${root}/local/v1`, vllm: `${root}/nothing/v1` });
		expect(found).toEqual([
			{ type: 'ollama', baseUrl: `${root}/local/v1`, models: ['qwen3:8b', 'llama3.2'] },
		]);
	});
});
