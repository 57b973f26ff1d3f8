import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { createToolServer } from './toolServer.js';

export interface HttpToolServer {
	/** `http://127.0.0.1:<port>/mcp` */
	readonly url: string;
	/** Sessions initialised so far (one per client connection). */
	sessions(): number;
	/** Sessions the client closed (DELETE). */
	terminated(): number;
	/** Request headers seen, for header tests. */
	readonly headers: Record<string, string | string[] | undefined>[];
	close(): Promise<void>;
}

/** The test tools over streamable HTTP (stateful sessions) on 127.0.0.1. */
export async function startHttpToolServer(): Promise<HttpToolServer> {
	const transports = new Map<string, StreamableHTTPServerTransport>();
	const headers: HttpToolServer['headers'] = [];
	let sessions = 0;
	let terminated = 0;
	const server = createServer((req, res) => {
		void (async () => {
			headers.push(req.headers);
			const body = req.method === 'POST' ? await readJson(req) : undefined;
			const id = req.headers['mcp-session-id'];
			let transport = typeof id === 'string' ? transports.get(id) : undefined;
			if (transport === undefined && req.method === 'POST' && isInitializeRequest(body)) {
				const created = new StreamableHTTPServerTransport({
					sessionIdGenerator: () => randomUUID(),
					onsessioninitialized: (sessionId) => {
						sessions++;
						transports.set(sessionId, created);
					},
				});
				created.onclose = () => {
					if (created.sessionId) transports.delete(created.sessionId);
				};
				await createToolServer().connect(created);
				transport = created;
			}
			if (transport === undefined) {
				res
					.writeHead(400, { 'content-type': 'application/json' })
					.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'no session' }, id: null }));
				return;
			}
			if (req.method === 'DELETE') terminated++;
			await transport.handleRequest(req, res, body);
		})().catch((error: unknown) => {
			if (!res.headersSent) res.writeHead(500).end(String(error));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/mcp`,
		sessions: () => sessions,
		terminated: () => terminated,
		headers,
		close: async () => {
			for (const transport of transports.values()) await transport.close().catch(() => undefined);
			await new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			});
		},
	};
}

async function readJson(req: IncomingMessage): Promise<unknown> {
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(chunk as Buffer);
	const text = Buffer.concat(chunks).toString('utf8');
	return text ? JSON.parse(text) : undefined;
}
