import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startLoopbackProvider, type LoopbackProvider } from '../../servers/loopbackProvider';

/** The local servers' usual ports, as the builder probes them (Ollama's first). */
const usualPorts = [
	['ollama', 11434],
	['lmstudio', 1234],
	['vllm', 8000],
	['sglang', 30000],
] as const;

export interface LocalModelServer {
	/** The backend type whose usual port it took (`ollama`, else the next free one). */
	readonly type: string;
	readonly models: readonly string[];
	/** The loopback chat-completions server behind it (its recorded requests). */
	readonly chat: LoopbackProvider;
	close(): Promise<void>;
}

/**
 * A "local model server" on the first free usual port: `/v1/models` lists `models`, everything
 * else is relayed to a loopback chat-completions auto-agent, so the builder finds it as a user's
 * Ollama would be found and a team built on it runs.
 */
export async function startLocalModelServer(models: readonly string[]): Promise<LocalModelServer> {
	const chat = await startLoopbackProvider('chat', { auto: { name: 'local' } });
	const upstream = new URL(chat.baseUrl.replace(/\/v1$/, ''));
	const relay = (): Server =>
		createServer((req, res) => {
			if (req.url === '/v1/models') {
				res.writeHead(200, { 'content-type': 'application/json' });
				res.end(JSON.stringify({ object: 'list', data: models.map((id) => ({ id, object: 'model' })) }));
				return;
			}
			const target = new URL(req.url ?? '/', upstream);
			const forward = request(
				target,
				{ method: req.method, headers: { ...req.headers, host: target.host } },
				(up) => {
					res.writeHead(up.statusCode ?? 502, up.headers);
					up.pipe(res);
				},
			);
			forward.on('error', () => res.writeHead(502).end());
			req.pipe(forward);
		});
	for (const [type, port] of usualPorts) {
		const server = relay();
		const bound = await new Promise<boolean>((resolve) => {
			server.once('error', () => resolve(false));
			server.listen(port, () => resolve((server.address() as AddressInfo).port === port));
		});
		if (!bound) {
			server.close();
			continue;
		}
		return {
			type,
			models,
			chat,
			close: async () => {
				server.closeAllConnections();
				await new Promise<void>((done) => server.close(() => done()));
				await chat.close();
			},
		};
	}
	await chat.close();
	throw new Error(`none of the usual local-server ports is free: ${usualPorts.map((p) => p[1]).join(', ')}`);
}
