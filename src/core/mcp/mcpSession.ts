/**
 * One client session with one MCP server for one run (MassGen reconnected on every model
 * call: docs/decisions/0012-one-mcp-session-per-run.md). Started once, shared by every agent that uses the
 * server, closed when the run ends. A server that crashes or cannot start makes its tools unavailable: calls
 * get a clear tool error and the run continues.
 */
import { isAbsolute, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { ToolHints } from '../permissions/riskClassifier.js';
import type { ToolOutcome } from '../providers/spec/toolOutcome.js';
import { GroupStdioTransport } from './groupStdioTransport.js';
import { boundedFetch, maxMcpReasonChars, toolListRefusal } from './mcpLimits.js';
import { toToolOutcome, type McpCallResult } from './mcpResult.js';
import { expandRecord, expandVariables, type ExpandContext, type McpServerSpec } from './mcpServerSpec.js';
import { errorMessage } from '../util/errorMessage.js';
import { hostPath } from '../util/hostPath.js';

/** Pages of `tools/list` read at most (a server that never stops paging is unavailable). */
const maxToolPages = 100;

/**
 * The SDK validates a tool's `structuredContent` against the server's own `outputSchema` with
 * ajv, whose `pattern` is a backtracking RegExp: a server could freeze the engine (and the
 * extension host) with `^(a+)+$`. The server wrote both the schema and the data, so the check
 * proves nothing to us; results reach the model as data either way (`mcpResult.ts`).
 */
const unchecked: jsonSchemaValidator = {
	getValidator<T>(): JsonSchemaValidator<T> {
		return (input) => ({ valid: true, data: input as T, errorMessage: undefined });
	},
};

export interface McpToolInfo {
	/** The server's own (unprefixed) name. */
	readonly name: string;
	readonly description: string;
	readonly inputSchema: Record<string, unknown>;
	readonly hints?: ToolHints;
}

export interface McpSessionOptions {
	/** For `${VAR}` in env, args, URLs and headers. */
	readonly env: Readonly<Record<string, string | undefined>>;
	readonly workspaceRoot: string;
	/** Starting the server and listing its tools. */
	readonly startTimeoutMs: number;
}

export type McpSessionState = 'idle' | 'starting' | 'ready' | 'failed' | 'closed';

const clientInfo = { name: 'massgen-vscode', version: '0.1.0' };

export class McpSession {
	private client: Client | undefined;
	private transport: Transport | undefined;
	private starting: Promise<void> | undefined;
	private status: McpSessionState = 'idle';
	private problem: string | undefined;
	private toolList: McpToolInfo[] = [];

	constructor(
		readonly spec: McpServerSpec,
		private readonly options: McpSessionOptions,
	) {}

	get state(): McpSessionState {
		return this.status;
	}

	/** Why the server is unavailable (failed to start, crashed, closed). */
	get failure(): string | undefined {
		return this.problem;
	}

	get tools(): readonly McpToolInfo[] {
		return this.toolList;
	}

	/** The stdio server's process id (its process group id too). */
	get pid(): number | undefined {
		return this.transport instanceof GroupStdioTransport ? this.transport.pid : undefined;
	}

	/** Connects and lists the tools, once; later calls share the first attempt. Never rejects. */
	start(signal?: AbortSignal): Promise<void> {
		this.starting ??= this.connect(signal).catch((error: unknown) =>
			this.fail(`could not start: ${describeError(error)}`),
		);
		return this.starting;
	}

	async call(
		tool: string,
		args: Record<string, unknown>,
		signal: AbortSignal,
		timeoutMs: number,
		modelName: string,
	): Promise<ToolOutcome> {
		const unavailable = this.unavailable();
		if (unavailable !== null) return { text: `${modelName}: ${unavailable}`, isError: true };
		try {
			const result = await this.client!.callTool({ name: tool, arguments: args }, undefined, {
				signal,
				timeout: timeoutMs,
			});
			return toToolOutcome(modelName, result as McpCallResult);
		} catch (error) {
			if (signal.aborted) return { text: `${modelName}: cancelled`, isError: true };
			if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
				return {
					text: `${modelName}: timed out after ${Math.round(timeoutMs / 1000)} s (MCP server '${this.spec.name}')`,
					isError: true,
				};
			}
			const now = this.unavailable();
			if (now !== null) return { text: `${modelName}: ${now}`, isError: true };
			return { text: `${modelName}: ${describeError(error)}`, isError: true };
		}
	}

	/** Why calls cannot go through, or null when the session is ready. */
	unavailable(): string | null {
		if (this.status === 'ready') return null;
		if (this.status === 'failed') {
			return `MCP server '${this.spec.name}' is unavailable: ${this.problem ?? 'it failed'}`;
		}
		if (this.status === 'closed') return `MCP server '${this.spec.name}' is closed (the run is ending)`;
		return `MCP server '${this.spec.name}' is not started`;
	}

	/** Closes the session (and the stdio server's whole process group). Idempotent, never rejects. */
	async close(): Promise<void> {
		if (this.status === 'closed') return;
		const wasFailed = this.status === 'failed';
		this.status = 'closed';
		const transport = this.transport;
		try {
			if (
				transport instanceof StreamableHTTPClientTransport &&
				transport.sessionId !== undefined &&
				!wasFailed
			) {
				await withTimeout(transport.terminateSession(), 1000).catch(() => undefined);
			}
			await withTimeout(this.client?.close() ?? Promise.resolve(), 3000).catch(() => undefined);
		} finally {
			if (transport instanceof GroupStdioTransport) await transport.close().catch(() => undefined);
		}
	}

	private async connect(signal: AbortSignal | undefined): Promise<void> {
		this.status = 'starting';
		const transport = this.createTransport();
		this.transport = transport;
		const client = new Client(clientInfo, { capabilities: {}, jsonSchemaValidator: unchecked });
		this.client = client;
		client.onclose = () => {
			if (this.status === 'ready' || this.status === 'starting') {
				this.fail(this.exitDescription() ?? 'the connection closed');
			}
		};
		await client.connect(transport, { signal, timeout: this.options.startTimeoutMs });
		const tools: McpToolInfo[] = [];
		let cursor: string | undefined;
		const seen = new Set<string>();
		// One start timeout for every page: a server that pages forever (empty pages, new cursors)
		// must not keep the run from starting.
		const deadline = Date.now() + this.options.startTimeoutMs;
		let listBytes = 0;
		do {
			if (seen.size >= maxToolPages) throw new Error(`tools/list did not end after ${maxToolPages} pages`);
			const page = await client.listTools(cursor === undefined ? {} : { cursor }, {
				signal,
				timeout: Math.max(1, deadline - Date.now()),
			});
			// Every listed tool would ride on each request: refused whole, before any is kept.
			listBytes += page.tools.reduce((sum, tool) => sum + Buffer.byteLength(JSON.stringify(tool), 'utf8'), 0);
			const refusal = toolListRefusal(tools.length + page.tools.length, listBytes);
			if (refusal !== null) throw new Error(refusal);
			for (const tool of page.tools) {
				const { $schema: _ignored, ...inputSchema } = (tool.inputSchema ?? { type: 'object' }) as Record<
					string,
					unknown
				>;
				tools.push({
					name: tool.name,
					description: tool.description ?? tool.title ?? tool.name,
					inputSchema: { type: 'object', properties: {}, ...inputSchema },
					...(tool.annotations ? { hints: tool.annotations as ToolHints } : {}),
				});
			}
			cursor = page.nextCursor;
			if (cursor !== undefined && seen.has(cursor)) throw new Error('tools/list repeated a page cursor');
			if (cursor !== undefined) seen.add(cursor);
		} while (cursor !== undefined);
		if (this.status !== 'starting') return;
		this.toolList = tools;
		this.status = 'ready';
	}

	private createTransport(): Transport {
		const { spec, options } = this;
		const context: ExpandContext = {
			env: options.env,
			workspaceFolder: options.workspaceRoot,
			userHome: options.env['HOME'] ?? options.env['USERPROFILE'],
		};
		const missing: string[] = [];
		const expand = (text: string) => {
			const result = expandVariables(text, context);
			missing.push(...result.missing);
			return result.value;
		};
		let transport: Transport;
		if (spec.type === 'stdio') {
			if (!spec.command) throw new Error("a stdio server needs 'command'");
			if (spec.cwd !== undefined && spec.cwd.split(/[\\/]/).includes('..')) {
				throw new Error(`'cwd' may not contain '..' (${spec.cwd})`);
			}
			const cwd =
				spec.cwd === undefined
					? options.workspaceRoot
					: isAbsolute(expand(spec.cwd))
						? expand(spec.cwd)
						: resolve(options.workspaceRoot, expand(spec.cwd));
			const inherited = getDefaultEnvironment();
			// Its command is looked up on a PATH the workspace cannot add to (`hostPath`).
			const path = hostPath(inherited['PATH'], options.workspaceRoot);
			const env = { ...inherited, PATH: path, ...expandRecord(spec.env, context, missing) };
			transport = new GroupStdioTransport({
				command: expand(spec.command),
				args: (spec.args ?? []).map(expand),
				env,
				cwd,
			});
		} else {
			if (!spec.url) throw new Error(`a ${spec.type} server needs 'url'`);
			const url = new URL(expand(spec.url));
			const headers = expandRecord(spec.headers, context, missing);
			// Response bodies and SSE events are bounded; past the cap the session ends with the reason.
			const fetch = boundedFetch((reason) => this.fail(reason));
			transport =
				spec.type === 'sse'
					? new SSEClientTransport(url, { requestInit: { headers }, fetch })
					: new StreamableHTTPClientTransport(url, { requestInit: { headers }, fetch });
		}
		if (missing.length > 0) throw new Error(`not set: ${[...new Set(missing)].join(', ')}`);
		return transport;
	}

	private fail(reason: string): void {
		if (this.status === 'closed' || this.status === 'failed') return;
		this.status = 'failed';
		this.problem = boundedReason(reason);
		// A server that failed to start may still be running (e.g. it hangs): end it now.
		void this.client?.close().catch(() => undefined);
		if (this.transport instanceof GroupStdioTransport) void this.transport.close().catch(() => undefined);
	}

	private exitDescription(): string | undefined {
		if (!(this.transport instanceof GroupStdioTransport)) return undefined;
		if (this.transport.problem !== undefined) return this.transport.problem;
		const exit = this.transport.exitInfo;
		if (exit === undefined) return undefined;
		const how = exit.signal ? `was killed (${exit.signal})` : `exited (code ${exit.code})`;
		const tail = this.transport.stderrTail.trim().split('\n').slice(-3).join(' | ');
		return `the server ${how}${tail ? `; stderr: ${tail}` : ''}`;
	}
}

/**
 * The reason cut to `maxMcpReasonChars`, the word the cut falls in dropped whole: it may be a secret
 * (a key the server echoed), which the run's redactor recognises only whole.
 */
function boundedReason(reason: string): string {
	if (reason.length <= maxMcpReasonChars) return reason;
	return `${reason.slice(0, maxMcpReasonChars).replace(/\S*$/u, '')}…`;
}

function describeError(error: unknown): string {
	if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) return 'timed out';
	const message = errorMessage(error);
	return message.replace(/^MCP error -?\d+: /, '');
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
	let timer: NodeJS.Timeout | undefined;
	const limit = new Promise<undefined>((resolveLimit) => {
		timer = setTimeout(() => resolveLimit(undefined), ms);
		timer.unref();
	});
	return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}
