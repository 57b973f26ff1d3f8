import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

/**
 * An MCP server (the SDK's server side) that floods its client: `read_log` answers with `bytes`
 * bytes of text in one message (like the filesystem server reading a 12 MB log), and `tools`
 * extra tools are listed (a server with 20,000 tools).
 */
export function createFloodServer(options: { tools?: number } = {}): McpServer {
	const server = new McpServer({ name: 'massgen-test-flood', version: '1.0.0' });
	server.registerTool(
		'read_log',
		{
			description: 'Read the log: `bytes` bytes of it.',
			inputSchema: { bytes: z.number() },
			annotations: { readOnlyHint: true, openWorldHint: false },
		},
		async ({ bytes }) => ({ content: [{ type: 'text', text: `log:${'x'.repeat(bytes)}` }] }),
	);
	for (let i = 0; i < (options.tools ?? 0); i++) {
		server.registerTool(`tool_${i}`, { description: `Tool number ${i}.` }, async () => ({
			content: [{ type: 'text', text: String(i) }],
		}));
	}
	return server;
}

export interface FloodHttpServer {
	/** `http://127.0.0.1:<port>/mcp` */
	readonly url: string;
	close(): Promise<void>;
}

/**
 * The flood server over streamable HTTP, stateless (a server per request). `json`: responses as
 * one JSON body; otherwise as SSE events.
 */
export async function startFloodHttpServer(options: { json: boolean }): Promise<FloodHttpServer> {
	const server: Server = createServer((req, res) => {
		void (async () => {
			const chunks: Buffer[] = [];
			for await (const chunk of req) chunks.push(chunk as Buffer);
			const body =
				chunks.length > 0 ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown) : undefined;
			const transport = new StreamableHTTPServerTransport({
				sessionIdGenerator: undefined,
				enableJsonResponse: options.json,
			});
			res.on('close', () => void transport.close());
			await createFloodServer().connect(transport);
			await transport.handleRequest(req, res, body);
		})().catch((error: unknown) => {
			if (!res.headersSent) res.writeHead(500).end(String(error));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/mcp`,
		close: () =>
			new Promise((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
