/**
 * `massgen serve` (docs/cli.md): an OpenAI-compatible HTTP server over the team, on node:http.
 * `GET /health`, `GET /v1/models` (one model per team, `servedTeams.ts`), `POST
 * /v1/chat/completions` (`chatCompletion.ts`). Loopback only unless `--token` is given; who may
 * call is `requestGuard.ts`'s; bodies are capped and a client has `--request-timeout` to send one.
 * Runs until SIGINT/SIGTERM, which cancels the runs in flight and waits for their logs.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { stat } from 'node:fs/promises';
import type { CliIo } from '../cliIo.js';
import type { ServeArgs } from './serveArgs.js';
import { missingConfig } from '../cliHost.js';
import { chatCompletion, sendError, sendJson, type ServeContext } from './chatCompletion.js';
import { chatRequestSchema, requestProblem } from './openAiWire.js';
import { readBody } from './readBody.js';
import { authority, isLoopbackHost, requestGuard } from './requestGuard.js';
import { servedTeams } from './servedTeams.js';

/** A chat request of this size is a conversation of about a million words. */
export const maxBodyBytes = 4 * 1024 * 1024;

export async function serveCommand(command: ServeArgs, io: CliIo): Promise<number> {
	const fail = (message: string) => (io.stderr.write(`massgen: ${message}\n`), 1);
	const token = command.token ?? (io.env['MASSGEN_SERVE_TOKEN'] || undefined);
	if (!isLoopbackHost(command.host) && token === undefined) {
		return fail(
			`binding ${command.host} lets other machines reach the team: give --token (or MASSGEN_SERVE_TOKEN)`,
		);
	}
	const root = resolve(command.workspace);
	if (!(await isKind(root, 'folder'))) return fail(`workspace '${command.workspace}' is not a folder`);
	const config = command.config === undefined ? undefined : resolve(command.config);
	if (config !== undefined && !(await isKind(config, 'file'))) return fail(missingConfig(config));
	const stopping = new AbortController();
	const runs = new Set<Promise<void>>();
	const context: ServeContext = {
		root,
		config,
		env: io.env,
		log: (line) => void io.stderr.write(`massgen serve: ${line}\n`),
		signal: stopping.signal,
	};
	const timeoutMs = command.requestTimeoutSeconds * 1000;
	const server = createServer({
		requestTimeout: timeoutMs,
		headersTimeout: timeoutMs,
		// How often Node checks those timeouts (its default, 30 s, would let a slow client hold on that long).
		connectionsCheckingInterval: Math.min(1000, timeoutMs),
	});
	let guard: ReturnType<typeof requestGuard> | undefined;
	server.on('request', (request: IncomingMessage, response: ServerResponse) => {
		const handled = handle(request, response).catch((error: unknown) => {
			context.log(`internal error: ${(error as Error).message}`);
			sendError(response, 500, 'internal error', 'server_error');
		});
		const tracked = handled.finally(() => runs.delete(tracked));
		runs.add(tracked);
	});

	async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
		const verdict = guard!(request.headers);
		if (!verdict.ok) {
			const type = verdict.status === 401 ? 'authentication_error' : 'permission_error';
			return sendError(response, verdict.status, verdict.message, type);
		}
		const path = new URL(request.url ?? '/', 'http://localhost').pathname;
		if (path === '/health' && request.method === 'GET') return sendJson(response, 200, { status: 'ok' });
		if (path.startsWith('/v1/models') && request.method === 'GET') {
			const teams = (await servedTeams(root, config)).map((team) => ({
				id: team.id,
				object: 'model',
				created: 0,
				owned_by: 'massgen',
			}));
			if (path === '/v1/models') return sendJson(response, 200, { object: 'list', data: teams });
			const id = path.slice('/v1/models/'.length);
			// The SDKs send the id as one path segment (`massgen%2Fdemo`).
			const team = teams.find((served) => served.id === id || encodeURIComponent(served.id) === id);
			if (team) return sendJson(response, 200, team);
			return sendError(response, 404, `unknown model '${id}'`, 'invalid_request_error', 'model_not_found');
		}
		if (path !== '/v1/chat/completions') {
			return sendError(response, 404, `no route ${path}`, 'not_found_error');
		}
		if (request.method !== 'POST') return sendError(response, 405, 'use POST', 'invalid_request_error');
		// A page's form or `no-cors` fetch can only send text/plain and forms: JSON needs a preflight.
		if (!/^application\/json\b/i.test(request.headers['content-type'] ?? '')) {
			return sendError(response, 415, 'the body must be application/json', 'invalid_request_error');
		}
		const body = await readBody(request, maxBodyBytes);
		if (!body.ok) {
			return sendError(
				response,
				413,
				`the body is larger than ${maxBodyBytes} bytes`,
				'invalid_request_error',
			);
		}
		let json: unknown;
		try {
			json = JSON.parse(body.text);
		} catch {
			return sendError(response, 400, 'the body is not valid JSON', 'invalid_request_error');
		}
		const parsed = chatRequestSchema.safeParse(json);
		if (!parsed.success) {
			return sendError(response, 400, requestProblem(parsed.error), 'invalid_request_error');
		}
		await chatCompletion(response, parsed.data, context);
	}

	const listening = await new Promise<AddressInfo | Error>((done) => {
		server.once('error', done);
		server.listen(command.port, command.host, () => done(server.address() as AddressInfo));
	});
	if (listening instanceof Error) {
		return fail(`cannot listen on ${authority(command.host, command.port)}: ${listening.message}`);
	}
	guard = requestGuard({ token, port: listening.port });
	io.stderr.write(`listening on http://${authority(command.host, listening.port)}\n`);
	await new Promise<void>((done) => {
		if (io.signal.aborted) done();
		io.signal.addEventListener('abort', () => done(), { once: true });
	});
	// Stop: no new connection, the runs in flight cancelled and their logs closed.
	stopping.abort();
	server.close();
	server.closeIdleConnections();
	await Promise.allSettled([...runs]);
	server.closeAllConnections();
	return 0;
}

async function isKind(path: string, kind: 'folder' | 'file'): Promise<boolean> {
	try {
		const stats = await stat(path);
		return kind === 'folder' ? stats.isDirectory() : stats.isFile();
	} catch {
		return false;
	}
}
