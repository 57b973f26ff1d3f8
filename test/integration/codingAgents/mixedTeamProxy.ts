import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LoopbackProvider } from '../../servers/loopbackProvider.js';

/** A loopback server behind a proxy that sees each request's text before the server answers it. */
export interface ProxiedProvider {
	readonly baseUrl: string;
	close(): Promise<void>;
}

/**
 * Forwards every request to `target` unchanged (the reply streams back as it comes), after
 * `before(text, index)` has seen it: every string of its JSON body, joined. So a test can queue the
 * reply a request needs from what it shows, e.g. a vote for the anonymous id of a given answer
 * (the ids are shuffled per run).
 */
export async function proxyOf(
	target: LoopbackProvider,
	before: (text: string, index: number) => void,
): Promise<ProxiedProvider> {
	const upstream = new URL(target.baseUrl);
	let count = 0;
	const server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const body = Buffer.concat(chunks);
			before(textOf(body.toString('utf8')), count++);
			const forward = httpRequest(
				{
					host: upstream.hostname,
					port: upstream.port,
					method: req.method,
					path: req.url,
					headers: { ...req.headers, host: upstream.host },
				},
				(reply) => {
					res.writeHead(reply.statusCode ?? 502, reply.headers);
					reply.pipe(res);
				},
			);
			forward.on('error', () => res.destroy());
			forward.end(body);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		baseUrl: `http://127.0.0.1:${port}${upstream.pathname.replace(/\/$/, '')}`,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

/** Every string in a JSON body, joined by newlines (the raw text when it is not JSON). */
function textOf(raw: string): string {
	const found: string[] = [];
	const walk = (value: unknown): void => {
		if (typeof value === 'string') found.push(value);
		else if (Array.isArray(value)) value.forEach(walk);
		else if (value && typeof value === 'object') Object.values(value).forEach(walk);
	};
	try {
		walk(JSON.parse(raw));
	} catch {
		return raw;
	}
	return found.join('\n');
}

/** The anonymous id of the `<answer id="agentN">` block whose content starts with `marker`, if shown. */
export function answerIdOf(text: string, marker: string): string | undefined {
	for (const match of text.matchAll(/<answer id="(agent\d+)"[^>]*>\n([^\n]*)/g)) {
		if (match[2]!.startsWith(marker)) return match[1];
	}
	return undefined;
}

/**
 * A proxy hook: once `server`'s scripted replies are used up, each coordination request gets a vote
 * (queued through `vote`) for the first of `markers`' answers it shows; the presentation gets none.
 * A vote cast before the preferred answer landed is invalidated by it, and the agent votes again.
 */
export function voteWhenShown(
	server: LoopbackProvider,
	markers: readonly string[],
	vote: (id: string) => void,
): (text: string) => void {
	return (text) => {
		if (server.pending() > 0 || text.includes('selected you to present')) return;
		const id = markers.map((marker) => answerIdOf(text, marker)).find((found) => found !== undefined);
		if (id !== undefined) vote(id);
	};
}
