/**
 * Our tools the Codex CLI calls (docs/coding-agents.md): the workflow tools (`new_answer`, `vote`, the
 * evaluation's verdicts) and those that must run in our runtime (`run_command` under the permission
 * engine, `view_answer_changes`, MCP servers' tools), served by a loopback MCP server over
 * streamable HTTP. Codex cannot host an in-process server as the Claude SDK does, and a stdio one
 * would be a process of its own, so the server lives in the run's process on 127.0.0.1 and
 * answers only requests with the run's random bearer token (the CLI reads it from an environment
 * variable: it never shows on a command line). A call waits in its handler while our turn ends:
 * the runtime runs or decides it like any tool call, and its result answers it on the next call.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { ToolDefinition } from '../spec/model.js';
import type { BridgedCall } from './agentTurns.js';

export const codexBridgeName = 'massgen';
/** The variable the CLI reads the bridge's bearer token from. */
export const codexBridgeTokenVariable = 'MASSGEN_BRIDGE_TOKEN';

export interface CodexBridge {
	/** `http://127.0.0.1:<port>/mcp` */
	readonly url: string;
	readonly token: string;
	/** Calls received and not yet handed to the runtime. */
	take(): BridgedCall[];
	/** Resolves when a call arrives (at once when one is waiting). */
	arrived(): Promise<void>;
	/** The tools the current call offers: a call to another is refused in the handler. */
	offer(names: ReadonlySet<string>): void;
	/** Stops serving; calls still waiting are answered with an error. Never rejects. */
	close(): Promise<void>;
}

type ToolResult = { content: { type: 'text'; text: string }[]; isError?: boolean };

export async function startCodexBridge(
	tools: readonly ToolDefinition[],
	nextId: () => string,
): Promise<CodexBridge> {
	// Imported here: a run without a codex agent never loads the MCP server code.
	const [{ Server }, { StreamableHTTPServerTransport }, { CallToolRequestSchema, ListToolsRequestSchema }] =
		await Promise.all([
			import('@modelcontextprotocol/sdk/server/index.js'),
			import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
			import('@modelcontextprotocol/sdk/types.js'),
		]);
	const token = randomBytes(24).toString('hex');
	const waiting: BridgedCall[] = [];
	const open = new Set<(result: ToolResult) => void>();
	let wake: (() => void) | undefined;
	let offered: ReadonlySet<string> = new Set(tools.map((tool) => tool.name));

	const call = (name: string, args: Record<string, unknown>): Promise<ToolResult> => {
		if (!tools.some((tool) => tool.name === name)) {
			return Promise.resolve(result(`unknown tool ${name}`, true));
		}
		if (!offered.has(name)) {
			return Promise.resolve(result(`${name}: tool call limit for this turn reached.`, true));
		}
		return new Promise((resolve) => {
			open.add(resolve);
			waiting.push({
				id: nextId(),
				name,
				args,
				answer: (text, isError) => {
					open.delete(resolve);
					resolve(result(text, isError));
				},
			});
			wake?.();
		});
	};

	// Stateless: each request gets its own server and transport (a CLI turn is a process of its own).
	const mcpServer = (): Server => {
		const server = new Server({ name: codexBridgeName, version: '1.0.0' }, { capabilities: { tools: {} } });
		server.setRequestHandler(ListToolsRequestSchema, async () => ({
			tools: tools.map((tool) => ({
				name: tool.name,
				description: tool.description,
				inputSchema: tool.parameters as { type: 'object' },
			})),
		}));
		server.setRequestHandler(CallToolRequestSchema, (request) =>
			call(request.params.name, (request.params.arguments ?? {}) as Record<string, unknown>),
		);
		return server;
	};

	const http: HttpServer = createServer((req, res) => {
		if (req.headers['authorization'] !== `Bearer ${token}`) {
			res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"unauthorized"}');
			return;
		}
		void (async () => {
			const body = req.method === 'POST' ? await readJson(req) : undefined;
			const server = mcpServer();
			const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
			res.on('close', () => {
				void transport.close();
				void server.close();
			});
			await server.connect(transport);
			await transport.handleRequest(req, res, body);
		})().catch((error: unknown) => {
			if (!res.headersSent) res.writeHead(500).end(String(error));
		});
	});
	await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
	const { port } = http.address() as AddressInfo;

	return {
		url: `http://127.0.0.1:${port}/mcp`,
		token,
		take: () => waiting.splice(0),
		arrived: () =>
			waiting.length > 0
				? Promise.resolve()
				: new Promise<void>((resolve) => {
						wake = resolve;
					}),
		offer: (names) => {
			offered = names;
		},
		close: async () => {
			for (const resolve of open) resolve(result('the run ended', true));
			open.clear();
			await new Promise<void>((resolve) => {
				http.close(() => resolve());
				http.closeAllConnections();
			});
		},
	};
}

function result(text: string, isError: boolean): ToolResult {
	return { content: [{ type: 'text', text }], ...(isError ? { isError: true } : {}) };
}

async function readJson(req: IncomingMessage): Promise<unknown> {
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(chunk as Buffer);
	const text = Buffer.concat(chunks).toString('utf8');
	return text ? JSON.parse(text) : undefined;
}
