/**
 * `massgen serve` end to end: `dist/cli.js serve` spawned on a free port, driven by the official
 * `openai` SDK, `curl` and raw sockets, its team the loopback servers (what they saw is asserted)
 * or the scripted demo team. Attacks: a page's Host and Origin, huge and slow bodies, a hostile
 * workspace config.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import OpenAI from 'openai';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { runFile } from '../../../src/contract/runLayout.js';
import { startLoopbackTeam, type LoopbackTeam } from '../../servers/loopbackTeam.js';
import { ManualClock } from '../../support/manualClock.js';
import { readResult, runDirs } from '../../support/runDir.js';
import { hashTree, makeWorkspaceDir, removeTrees } from '../../support/tempTree.js';
import { waitFor } from '../../support/waitFor.js';
import { startServe, type ServeProcess } from './serveProcess.js';

const run = promisify(execFile);
const notRunState = (rel: string) => rel === '.massgen';

const started: (ServeProcess | LoopbackTeam)[] = [];
afterEach(async () => {
	await Promise.all(started.splice(0).map((part) => ('stop' in part ? part.stop() : part.close())));
});
afterAll(removeTrees);

/** A HOME of its own for the child: its trust and permission stores. */
const userEnv = () => ({ HOME: makeWorkspaceDir() });

function configFile(yaml: string): string {
	const file = join(mkdtempSync(join(tmpdir(), 'massgen-cfg-')), 'team.yaml');
	writeFileSync(file, yaml);
	return file;
}

/**
 * The loopback team behind `serve --config team.yaml` (model `massgen/team`). `hold()` makes the
 * servers keep their next replies until `release()`: a run that waits, without a timer.
 */
async function loopbackServe(root: string, args: readonly string[] = [], env: Record<string, string> = {}) {
	const clock = new ManualClock();
	let holding = false;
	const team = await startLoopbackTeam({
		auto: {},
		clock,
		latency: () => (holding ? { firstByteMs: 1, streamMs: 0 } : undefined),
	});
	started.push(team);
	const serve = await startServe(['--config', configFile(team.configYaml()), ...args], {
		cwd: root,
		env: { ...userEnv(), ...env },
	});
	started.push(serve);
	const client = new OpenAI({ baseURL: `${serve.origin}/v1`, apiKey: 'unused', maxRetries: 0 });
	const requests = () => Object.values(team.servers).reduce((sum, server) => sum + server.requests.length, 0);
	return {
		team,
		serve,
		client,
		requests,
		hold: () => void (holding = true),
		release: async () => {
			holding = false;
			await clock.advance(1);
		},
	};
}

const conversation: OpenAI.Chat.ChatCompletionMessageParam[] = [
	{ role: 'system', content: 'You are a terse assistant.' },
	{ role: 'user', content: 'What does a.ts export?' },
	{ role: 'assistant', content: 'The constant a.' },
	{ role: 'user', content: [{ type: 'text', text: 'And its value?' }] },
];

/** A raw HTTP request: status and body (what the SDK would not send). */
function rawRequest(
	port: number,
	options: { method?: string; path: string; headers?: Record<string, string | number>; body?: string },
): Promise<{ status: number; body: string }> {
	return new Promise((resolve, reject) => {
		const req = httpRequest(
			{
				host: '127.0.0.1',
				port,
				method: options.method ?? 'GET',
				path: options.path,
				headers: options.headers,
			},
			(res) => {
				let body = '';
				res.on('data', (chunk: Buffer) => (body += chunk.toString()));
				res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
			},
		);
		req.on('error', reject);
		req.end(options.body);
	});
}

/** Writes `text` on a raw connection and resolves with everything the server sent once it closed it. */
function socketReply(port: number, text: string): Promise<string> {
	return new Promise((resolve, reject) => {
		const socket = connect(port, '127.0.0.1');
		let reply = '';
		socket.on('data', (chunk: Buffer) => (reply += chunk.toString()));
		socket.on('close', () => resolve(reply));
		socket.on('error', reject);
		socket.write(text);
	});
}

describe('massgen serve: an OpenAI-compatible server over the team', () => {
	it('lists the teams as models and answers a conversation the loopback servers saw, without writing', async () => {
		const root = makeWorkspaceDir({ 'a.ts': 'export const a = 1;\n' });
		const before = hashTree(root, notRunState);
		const { client, team, serve, requests } = await loopbackServe(root);
		const models = await client.models.list();
		expect(models.data.map((model) => model.id)).toEqual(['massgen/team', 'massgen/demo']);
		expect(await client.models.retrieve('massgen/demo')).toMatchObject({
			id: 'massgen/demo',
			owned_by: 'massgen',
		});
		await expect(client.models.retrieve('gpt-4o')).rejects.toMatchObject({ status: 404 });
		const health = await fetch(`${serve.origin}/health`);
		expect(await health.json()).toEqual({ status: 'ok' });

		const answer = await client.chat.completions.create({ model: 'massgen/team', messages: conversation });
		const content = answer.choices[0]!.message.content!;
		expect(content).toMatch(/^Final answer \(presented by the \w+ agent\): And its value\?$/);
		expect(answer.choices[0]!.finish_reason).toBe('stop');
		// Every model call reports 120 input and 30 output tokens: usage is the run's sum.
		expect(answer.usage).toMatchObject({
			prompt_tokens: 120 * requests(),
			completion_tokens: 30 * requests(),
		});
		const escaped = (text: string) => JSON.stringify(text).slice(1, -1);
		for (const [name, server] of Object.entries(team.servers)) {
			const first = server.requests[0]!.rawBody;
			expect(first, name).toContain(escaped('<CONVERSATION_HISTORY>\nUser: What does a.ts export?'));
			expect(first, name).toContain('And its value?');
			expect(first, name).not.toContain('You are a terse assistant.');
		}
		const [dir] = runDirs(root);
		expect(answer.id).toBe(`chatcmpl-${readResult<{ runId: string }>(dir!).runId}`);
		expect(serve.stderr()).toContain(`completed (massgen/team), run log: ${dir}`);
		expect(hashTree(root, notRunState)).toBe(before);

		const unknown = client.chat.completions.create({ model: 'gpt-4o', messages: conversation });
		await expect(unknown).rejects.toMatchObject({ status: 400, code: 'model_not_found' });
		const noQuestion = client.chat.completions.create({
			model: 'massgen/team',
			messages: [conversation[0]!],
		});
		await expect(noQuestion).rejects.toMatchObject({ status: 400 });
		const image = client.chat.completions.create({
			model: 'massgen/team',
			messages: [
				{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,AA==' } }] },
			],
		});
		await expect(image).rejects.toThrow(
			'messages.0.content: a string or text parts (images and files are not taken)',
		);
		const noMessages = await rawRequest(serve.port, {
			method: 'POST',
			path: '/v1/chat/completions',
			headers: { host: `127.0.0.1:${serve.port}`, 'content-type': 'application/json' },
			body: '{"model": "massgen/team", "messages": [',
		});
		expect(noMessages.status).toBe(400);
		expect(JSON.parse(noMessages.body)).toMatchObject({ error: { type: 'invalid_request_error' } });
	});

	it('streams: chunks reassemble to the final answer, progress stays out of it, usage comes last', async () => {
		const root = makeWorkspaceDir({ 'a.ts': 'export const a = 1;\n' });
		const { client, requests } = await loopbackServe(root);
		const stream = await client.chat.completions.create({
			model: 'massgen/team',
			messages: conversation,
			stream: true,
			stream_options: { include_usage: true },
		});
		const chunks: OpenAI.Chat.ChatCompletionChunk[] = [];
		for await (const chunk of stream) chunks.push(chunk);
		const content = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('');
		const result = readResult<{ finalAnswer: string; runId: string }>(runDirs(root)[0]!);
		expect(content).toBe(result.finalAnswer);
		expect(chunks[0]!.choices[0]!.delta.role).toBe('assistant');
		expect(chunks.every((chunk) => chunk.id === `chatcmpl-${result.runId}`)).toBe(true);
		expect(chunks.at(-2)!.choices[0]!.finish_reason).toBe('stop');
		expect(chunks.at(-1)!.choices).toEqual([]);
		expect(chunks.at(-1)!.usage).toMatchObject({ prompt_tokens: 120 * requests() });
	});

	it('the raw stream: progress in SSE comments, and a key of its environment in neither them nor the answer', async () => {
		const root = makeWorkspaceDir({ 'a.ts': 'export const a = 1;\n' });
		const secret = 'sk-live-PRIVATE-0123456789abcdef';
		const { serve, team } = await loopbackServe(root, [], { OPENAI_API_KEY: secret });
		const response = await fetch(`${serve.origin}/v1/chat/completions`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({
				model: 'massgen/team',
				stream: true,
				messages: [{ role: 'user', content: `Is ${secret} my key?` }],
			}),
		});
		expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
		const text = await response.text();
		const comments = text.split('\n').filter((line) => line.startsWith(': '));
		expect(comments.some((line) => /^: \w+ votes agent\d+\.\d+: /.test(line))).toBe(true);
		expect(comments.some((line) => line.startsWith(': winner: '))).toBe(true);
		// The answer repeats the question; the models were sent it as written.
		expect(text).toContain('Is [redacted] my key?');
		expect(text).not.toContain(secret);
		expect(serve.stderr()).not.toContain(secret);
		expect(team.servers.responses.requests[0]!.rawBody).toContain(secret);
		expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
	});

	it('curl: one plain request to the demo team; its pending change is named at the end and not written', async () => {
		const root = makeWorkspaceDir({ 'README.md': '# x\n' });
		const before = hashTree(root, notRunState);
		const serve = await startServe([], { cwd: root, env: userEnv() });
		started.push(serve);
		const body = JSON.stringify({
			model: 'massgen/demo',
			messages: [{ role: 'user', content: 'Write a guide' }],
		});
		const { stdout } = await run('curl', [
			'-sS',
			'--fail-with-body',
			`${serve.origin}/v1/chat/completions`,
			'-H',
			'content-type: application/json',
			'-d',
			body,
		]);
		const answer = JSON.parse(stdout) as {
			choices: { message: { content: string } }[];
			massgen: { run_dir: string };
		};
		const content = answer.choices[0]!.message.content;
		expect(content).toContain('Proposed changes, pending (nothing was written): CONTRIBUTING.md');
		expect(content).toContain(`git apply ${runFile(answer.massgen.run_dir, 'patch')}`);
		expect(existsSync(join(root, 'CONTRIBUTING.md'))).toBe(false);
		expect(readFileSync(runFile(answer.massgen.run_dir, 'patch'), 'utf8')).toContain('+++ b/CONTRIBUTING.md');
		expect(hashTree(root, notRunState)).toBe(before);
	});

	it('one run at a time: a second request while the first waits gets 429; the first then finishes', async () => {
		const root = makeWorkspaceDir();
		const { client, hold, release, requests } = await loopbackServe(root);
		hold();
		const first = client.chat.completions.create({ model: 'massgen/team', messages: conversation });
		await waitFor(() => requests() > 0, 'the first run calls a model');
		const second = client.chat.completions.create({ model: 'massgen/team', messages: conversation });
		await expect(second).rejects.toMatchObject({ status: 429, code: 'workspace_busy' });
		await release();
		expect((await first).choices[0]!.message.content).toMatch(/^Final answer/);
		expect(runDirs(root)).toHaveLength(1);
	});

	it('aborting the request cancels the run: status cancelled, the log kept, the workspace as it was', async () => {
		const root = makeWorkspaceDir({ 'a.ts': 'export const a = 1;\n' });
		const before = hashTree(root, notRunState);
		const { client, hold, serve, team, requests } = await loopbackServe(root);
		hold();
		const controller = new AbortController();
		// The stream opens once the run has started; its model calls are held.
		const stream = await client.chat.completions.create(
			{ model: 'massgen/team', messages: conversation, stream: true },
			{ signal: controller.signal },
		);
		await waitFor(() => requests() > 0, 'the run calls a model');
		controller.abort();
		// The SDK ends the aborted stream quietly: no answer came.
		let content = '';
		for await (const chunk of stream) content += chunk.choices[0]?.delta.content ?? '';
		expect(content).toBe('');
		await waitFor(() => /: cancelled \(massgen\/team\)/.test(serve.stderr()), 'the run ends cancelled');
		const [dir] = runDirs(root);
		expect(readResult<{ status: string }>(dir!).status).toBe('cancelled');
		expect(existsSync(runFile(dir!, 'events'))).toBe(true);
		// The model calls in flight were dropped, not left to finish.
		const held = Object.values(team.servers).flatMap((server) => server.requests);
		await Promise.all(held.map((request) => request.settled));
		expect(held.some((request) => request.closedByClient)).toBe(true);
		expect(hashTree(root, notRunState)).toBe(before);
	});

	it('a client that sends its request and hangs up at once leaves no run behind: cancelled, the workspace free', async () => {
		const root = makeWorkspaceDir({ 'a.ts': 'export const a = 1;\n' });
		const before = hashTree(root, notRunState);
		const { client, hold, serve, requests } = await loopbackServe(root);
		hold();
		const body = JSON.stringify({ model: 'massgen/team', messages: conversation });
		const ended = () =>
			(serve.stderr().match(/: cancelled \(massgen\/team\)|request refused \(cancelled\)/g) ?? []).length;
		// The whole request, then the connection closed before the server could answer anything: it may
		// close while the body is read or the teams are looked up, so a few times.
		for (let attempt = 1; attempt <= 3; attempt++) {
			await new Promise<void>((resolve, reject) => {
				const socket = connect(serve.port, '127.0.0.1', () => {
					socket.end(
						`POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1:${serve.port}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
						() => socket.destroy(),
					);
				});
				socket.on('close', () => resolve());
				socket.on('error', reject);
			});
			await waitFor(
				() => ended() === attempt,
				`hang-up ${attempt}: nobody is waiting, the run ends cancelled`,
			);
		}
		for (const dir of runDirs(root)) expect(readResult<{ status: string }>(dir).status).toBe('cancelled');
		// The busy gate was let go: the next client's run starts and calls the (held) models.
		const calls = requests();
		const next = client.chat.completions.create({ model: 'massgen/team', messages: conversation });
		next.catch(() => undefined);
		await waitFor(() => requests() > calls, 'the next request runs the team');
		expect(serve.stderr()).not.toContain('workspace_busy');
		expect(hashTree(root, notRunState)).toBe(before);
	});

	it('Ctrl-C cancels the run in flight (503 to its client), keeps its log and exits 0', async () => {
		const root = makeWorkspaceDir({ 'a.ts': 'export const a = 1;\n' });
		const before = hashTree(root, notRunState);
		const { client, hold, serve, requests } = await loopbackServe(root);
		hold();
		const asked = client.chat.completions.create({ model: 'massgen/team', messages: conversation });
		asked.catch(() => undefined);
		await waitFor(() => requests() > 0, 'the run calls a model');
		expect(await serve.stop()).toBe(0);
		await expect(asked).rejects.toMatchObject({ status: 503, code: 'server_stopping' });
		const [dir] = runDirs(root);
		expect(readResult<{ status: string }>(dir!).status).toBe('cancelled');
		expect(hashTree(root, notRunState)).toBe(before);
	});

	it('beyond loopback it needs the token: 401 without it or with a wrong one, and works with it', async () => {
		const root = makeWorkspaceDir();
		const refused = startServe(['--host', '0.0.0.0'], { cwd: root, env: userEnv() });
		await expect(refused).rejects.toThrow(/give --token/);
		const token = 'serve-token-0123456789';
		const serve = await startServe(['--host', '0.0.0.0', '--token', token], { cwd: root, env: userEnv() });
		started.push(serve);
		expect(serve.stderr()).toContain(`listening on http://0.0.0.0:${serve.port}\n`);
		const wrong = new OpenAI({ baseURL: `${serve.origin}/v1`, apiKey: 'not-the-token', maxRetries: 0 });
		await expect(wrong.models.list()).rejects.toMatchObject({ status: 401 });
		const none = await rawRequest(serve.port, { path: '/health' });
		expect(none.status).toBe(401);
		expect(JSON.parse(none.body)).toMatchObject({ error: { type: 'authentication_error' } });
		const right = new OpenAI({ baseURL: `${serve.origin}/v1`, apiKey: token, maxRetries: 0 });
		expect((await right.models.list()).data.map((model) => model.id)).toContain('massgen/demo');
		expect(serve.stderr()).not.toContain(token);
	});
});

describe('massgen serve under attack', () => {
	const validBody = JSON.stringify({ model: 'massgen/demo', messages: [{ role: 'user', content: 'Hi' }] });

	it("a web page cannot drive it: another Host (DNS rebinding), a foreign Origin, or a form's content type", async () => {
		const root = makeWorkspaceDir();
		const serve = await startServe([], { cwd: root, env: userEnv() });
		started.push(serve);
		const post = (headers: Record<string, string>) =>
			rawRequest(serve.port, { method: 'POST', path: '/v1/chat/completions', headers, body: validBody });
		const json = { 'content-type': 'application/json' };
		const rebound = await post({ ...json, host: `attacker.example:${serve.port}` });
		expect(rebound.status).toBe(403);
		expect(rebound.body).toContain('Host');
		const page = await post({ ...json, host: `127.0.0.1:${serve.port}`, origin: 'https://attacker.example' });
		expect(page.status).toBe(403);
		const form = await post({ 'content-type': 'text/plain', host: `localhost:${serve.port}` });
		expect(form.status).toBe(415);
		expect(runDirs(root)).toEqual([]);
		// The same request from a local client runs.
		expect((await post({ ...json, host: `localhost:${serve.port}` })).status).toBe(200);
		expect(runDirs(root)).toHaveLength(1);
	});

	it('a huge body is refused (declared or streamed), and a body sent too slowly is cut off', async () => {
		const root = makeWorkspaceDir();
		const serve = await startServe(['--request-timeout', '1'], { cwd: root, env: userEnv() });
		started.push(serve);
		const headers = { host: `127.0.0.1:${serve.port}`, 'content-type': 'application/json' };
		const head = (length: number) =>
			`POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1:${serve.port}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n{"model":`;
		// Refused on its Content-Length, before the body is read.
		expect(await socketReply(serve.port, head(5 * 1024 * 1024))).toMatch(/^HTTP\/1\.1 413/);
		const streamed = await rawRequest(serve.port, {
			method: 'POST',
			path: '/v1/chat/completions',
			headers,
			body: `{"model":"massgen/demo","messages":[],"pad":"${'x'.repeat(5 * 1024 * 1024)}"}`,
		}).catch((error: Error) => ({ status: 0, body: error.message }));
		expect(streamed.status).toBe(413);
		// Slowloris: headers and half a body, then nothing; the server answers 408 and closes.
		expect(await socketReply(serve.port, head(100))).toMatch(/^HTTP\/1\.1 408/);
		expect(runDirs(root)).toEqual([]);
	});

	it("a hostile workspace config's MCP server is not started without massgen trust: 403 naming it", async () => {
		const config = stringify({
			agents: ['alpha', 'beta'].map((id) => ({
				id,
				backend: {
					type: 'scripted',
					...(id === 'alpha'
						? {
								mcp_servers: [{ name: 'helper', type: 'stdio', command: 'sh', args: ['-c', 'touch marker'] }],
							}
						: {}),
					script: { coordination: [{ answer: `${id}'s plan` }, { vote: 'first' }] },
				},
			})),
		});
		const root = makeWorkspaceDir({ '.massgen/config.yaml': config });
		const serve = await startServe([], { cwd: root, env: userEnv() });
		started.push(serve);
		const client = new OpenAI({ baseURL: `${serve.origin}/v1`, apiKey: 'unused', maxRetries: 0 });
		expect((await client.models.list()).data.map((model) => model.id)).toEqual([
			'massgen/workspace',
			'massgen/demo',
		]);
		const asked = client.chat.completions.create({
			model: 'massgen/workspace',
			messages: [{ role: 'user', content: 'Hi' }],
		});
		await expect(asked).rejects.toMatchObject({ status: 403, code: 'workspace_not_trusted' });
		await expect(asked).rejects.toThrow(/helper/);
		expect(existsSync(join(root, 'marker'))).toBe(false);
		expect(runDirs(root)).toEqual([]);
	});
});
