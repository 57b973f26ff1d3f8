/**
 * The MCP servers of one run: one session per distinct server (agents configuring the same
 * server share it), all started together when the run starts (each agent's first request
 * needs the tool lists), closed on every exit path of the run. Tools are exposed to each agent
 * as `mcp__<server>__<tool>` with the server's JSON Schema, filtered by `allowed_tools` /
 * `exclude_tools` on the unprefixed names.
 */
import { createHash } from 'node:crypto';
import type { ToolDefinition } from '../providers/spec/model.js';
import type { ToolHints } from '../permissions/riskClassifier.js';
import type { ToolOutcome } from '../providers/spec/toolOutcome.js';
import { isWorkspaceServer, startRefusal, type McpServerSpec } from './mcpServerSpec.js';
import type { McpSession, McpToolInfo } from './mcpSession.js';
import { stableJson } from '../util/stableJson.js';

/** What one agent uses: its servers and the backend-level filters (per-server `allowedTools` overrides; excludes add up). */
export interface AgentMcpConfig {
	readonly servers: readonly McpServerSpec[];
	readonly allowedTools?: readonly string[];
	readonly excludeTools?: readonly string[];
}

export interface McpHubOptions {
	readonly env: Readonly<Record<string, string | undefined>>;
	readonly workspaceRoot: string;
	/** Workspace Trust: false → stdio servers from workspace files never start. */
	readonly trusted: boolean;
	readonly startTimeoutMs: number;
	readonly callTimeoutMs: number;
	/** Servers that did not start, and why (for a warning in the panel or on stderr). */
	readonly onNotice?: (message: string) => void;
}

/** One MCP tool as an agent sees it. */
export interface McpTool {
	readonly definition: ToolDefinition;
	readonly server: string;
	/** The server's own name for the tool. */
	readonly tool: string;
	/**
	 * What permission rules and "always allow" grants match: `server/tool`, or
	 * `workspace:server/tool` for a server the workspace defined. A name says nothing about which
	 * program or host it is, so a user's `mcp(github/*)` must not match a repository's own `github`.
	 */
	readonly target: string;
	readonly hints?: ToolHints;
	/** Why calls cannot go through right now, or null. */
	unavailable(): string | null;
	call(args: Record<string, unknown>, signal: AbortSignal): Promise<ToolOutcome>;
}

/** Provider APIs accept `^[A-Za-z0-9_-]{1,64}$` for tool names. */
const maxNameLength = 64;

export class McpHub {
	private readonly sessions = new Map<string, McpSession>();
	/** Distinct servers not yet given a session: sessions are made at `start`. */
	private readonly specs = new Map<string, McpServerSpec>();
	private readonly agents = new Map<string, AgentMcpConfig>();
	private closed = false;

	constructor(private readonly options: McpHubOptions) {}

	/** Every session of the run (for tests and diagnostics). */
	get allSessions(): readonly McpSession[] {
		return [...this.sessions.values()];
	}

	/** Registers an agent's servers; `start` makes one session per distinct server. */
	addAgent(agentId: string, config: AgentMcpConfig): void {
		const servers: McpServerSpec[] = [];
		const seen = new Set<string>();
		for (const spec of config.servers) {
			if (seen.has(spec.name)) {
				this.options.onNotice?.(`agent '${agentId}': a second MCP server named '${spec.name}' is ignored`);
				continue;
			}
			const refusal = startRefusal(spec, this.options.trusted);
			if (refusal !== null) {
				this.options.onNotice?.(refusal);
				continue;
			}
			seen.add(spec.name);
			servers.push(spec);
			const key = sessionKey(spec);
			if (!this.specs.has(key)) this.specs.set(key, spec);
		}
		this.agents.set(agentId, { ...config, servers });
	}

	/** Starts every session in parallel; resolves when each is ready or has failed (never rejects). */
	async start(signal?: AbortSignal): Promise<void> {
		// Imported here: a run without MCP servers never loads the MCP client (its SDK, ajv).
		if (this.specs.size > 0) {
			const { McpSession } = await import('./mcpSession.js');
			if (this.closed) return;
			const { env, workspaceRoot, startTimeoutMs } = this.options;
			for (const [key, spec] of this.specs) {
				if (this.sessions.has(key)) continue;
				this.sessions.set(key, new McpSession(spec, { env, workspaceRoot, startTimeoutMs }));
			}
		}
		await Promise.all(
			[...this.sessions.values()].map(async (session) => {
				await session.start(signal);
				// A start cut short by cancelling the run is not worth a warning.
				if (session.state === 'failed' && !this.closed && !signal?.aborted) {
					this.options.onNotice?.(session.unavailable()!);
				}
			}),
		);
	}

	/** The agent's MCP tools from servers that are ready (a crashed server's tools drop out of new requests). */
	toolsFor(agentId: string): McpTool[] {
		const config = this.agents.get(agentId);
		if (config === undefined) return [];
		const tools: McpTool[] = [];
		const names = new Set<string>();
		for (const spec of config.servers) {
			const session = this.sessions.get(sessionKey(spec));
			if (session === undefined || session.state !== 'ready') continue;
			const allowed = spec.allowedTools ?? config.allowedTools;
			const excluded = [...(spec.excludeTools ?? []), ...(config.excludeTools ?? [])];
			for (const info of session.tools) {
				if (allowed !== undefined && !matchesFilter(allowed, spec.name, info.name)) continue;
				if (matchesFilter(excluded, spec.name, info.name)) continue;
				const name = uniqueName(toolName(spec.name, info.name), names);
				names.add(name);
				tools.push(this.adapt(session, info, name));
			}
		}
		return tools;
	}

	/** Closes every session (stdio servers' process groups end). Idempotent. */
	async close(): Promise<void> {
		this.closed = true;
		await Promise.all([...this.sessions.values()].map((session) => session.close()));
	}

	private adapt(session: McpSession, info: McpToolInfo, name: string): McpTool {
		const timeoutMs = this.options.callTimeoutMs;
		return {
			definition: {
				name,
				description: `${info.description} (MCP server '${session.spec.name}', tool '${info.name}')`,
				parameters: info.inputSchema,
			},
			server: session.spec.name,
			tool: info.name,
			target: `${isWorkspaceServer(session.spec) ? 'workspace:' : ''}${session.spec.name}/${info.name}`,
			...(info.hints ? { hints: hintsFrom(session.spec, info.hints) } : {}),
			unavailable: () => session.unavailable(),
			call: (args, signal) => session.call(info.name, args, signal, timeoutMs, name),
		};
	}
}

/**
 * A tool's annotations are the server's own claims, and a read-only closed-world claim lets its
 * calls run without asking (`classifyMcpTool`). A server the user configured is believed; one a
 * workspace defined (its team config, `.vscode/mcp.json`, `.mcp.json`) could call its exfiltration
 * tool read-only, so only what raises the risk (`destructiveHint`) is kept from it.
 */
function hintsFrom(spec: McpServerSpec, hints: ToolHints): ToolHints {
	return isWorkspaceServer(spec) ? (hints.destructiveHint === true ? { destructiveHint: true } : {}) : hints;
}

/** `mcp__<server>__<tool>`, sanitised to the provider alphabet and length. */
export function toolName(server: string, tool: string): string {
	const clean = (text: string) => text.replace(/[^A-Za-z0-9_-]/g, '_');
	const full = `mcp__${clean(server)}__${clean(tool)}`;
	if (full.length <= maxNameLength) return full;
	const hash = createHash('sha256').update(`${server}/${tool}`).digest('hex').slice(0, 8);
	return `${full.slice(0, maxNameLength - 9)}_${hash}`;
}

function uniqueName(name: string, taken: ReadonlySet<string>): string {
	if (!taken.has(name)) return name;
	for (let n = 2; ; n++) {
		const suffix = `_${n}`;
		const candidate = `${name.slice(0, maxNameLength - suffix.length)}${suffix}`;
		if (!taken.has(candidate)) return candidate;
	}
}

/** Filters name tools unprefixed (MassGen); the prefixed form is accepted too. */
function matchesFilter(filter: readonly string[], server: string, tool: string): boolean {
	return filter.some((entry) => entry === tool || entry === toolName(server, tool));
}

/** Agents share a session when their server definitions are identical. */
function sessionKey(spec: McpServerSpec): string {
	const { allowedTools: _allowed, excludeTools: _excluded, origin: _origin, ...connection } = spec;
	return stableJson(connection);
}
