/**
 * One MCP server as the run starts it, whatever file defined it: MassGen's `mcp_servers`
 * entries, VS Code's `.vscode/mcp.json` (`servers`) and Claude Code's `.mcp.json` (`mcpServers`).
 */

export type McpTransportKind = 'stdio' | 'streamable-http' | 'sse';

/** Where a server was defined. Workspace files never start processes in an untrusted workspace. */
export type McpServerOrigin =
	| { readonly kind: 'config'; readonly fromWorkspace: boolean }
	| { readonly kind: 'settings' }
	| { readonly kind: 'workspace-file'; readonly file: string };

export interface McpServerSpec {
	/** `[A-Za-z0-9_-]+`; tools are exposed as `mcp__<name>__<tool>`. */
	readonly name: string;
	readonly type: McpTransportKind;
	readonly command?: string;
	readonly args?: readonly string[];
	/** Values may use `${VAR}` (and `${env:VAR}`), expanded from the caller's environment at start. */
	readonly env?: Readonly<Record<string, string>>;
	/** Relative to the workspace root; default: the workspace root. */
	readonly cwd?: string;
	readonly url?: string;
	readonly headers?: Readonly<Record<string, string>>;
	/** Unprefixed tool names; when set, only these tools are offered. */
	readonly allowedTools?: readonly string[];
	readonly excludeTools?: readonly string[];
	readonly origin: McpServerOrigin;
}

/** MassGen spells the HTTP transport several ways; VS Code says `http`, Cline `streamableHttp`. */
export function normaliseTransport(type: string | undefined, hasUrl: boolean): McpTransportKind | undefined {
	if (type === undefined) return hasUrl ? 'streamable-http' : 'stdio';
	const key = type.toLowerCase().replace(/[-_\s]/g, '');
	if (key === 'stdio') return 'stdio';
	if (key === 'streamablehttp' || key === 'http' || key === 'https') return 'streamable-http';
	if (key === 'sse') return 'sse';
	return undefined;
}

/** Whether a server may start in this workspace. */
export function startRefusal(spec: McpServerSpec, trusted: boolean): string | null {
	if (trusted || spec.type !== 'stdio') return null;
	const fromWorkspace = spec.origin.kind === 'workspace-file' || (spec.origin.kind === 'config' && spec.origin.fromWorkspace);
	if (!fromWorkspace) return null;
	const where = spec.origin.kind === 'workspace-file' ? spec.origin.file : 'the workspace team config';
	return `MCP server '${spec.name}' (from ${where}) was not started: the workspace is not trusted, and stdio servers start processes`;
}

export interface ExpandContext {
	readonly env: Readonly<Record<string, string | undefined>>;
	readonly workspaceFolder: string;
	readonly userHome?: string;
}

/**
 * Expands `${VAR}`, `${env:VAR}`, `${workspaceFolder}` and `${userHome}`; reports variables that
 * are not set and `${input:…}` prompts (which only VS Code itself can answer).
 */
export function expandVariables(text: string, context: ExpandContext): { value: string; missing: string[] } {
	const missing: string[] = [];
	const value = text.replace(/\$\{([^}]+)\}/g, (whole, inner: string) => {
		const name = inner.trim();
		if (name === 'workspaceFolder' || name === 'workspaceRoot') return context.workspaceFolder;
		if (name === 'userHome' && context.userHome !== undefined) return context.userHome;
		if (name.startsWith('input:')) {
			missing.push(`${whole} (VS Code input prompts are not supported; put the value in an environment variable)`);
			return '';
		}
		const variable = name.startsWith('env:') ? name.slice(4) : name;
		const found = context.env[variable];
		if (found === undefined) {
			missing.push(variable);
			return '';
		}
		return found;
	});
	return { value, missing };
}

/** Expands every value of a record; collects the missing variables. */
export function expandRecord(record: Readonly<Record<string, string>> | undefined, context: ExpandContext, missing: string[]): Record<string, string> {
	const out: Record<string, string> = {};
	for (const [key, raw] of Object.entries(record ?? {})) {
		const expanded = expandVariables(raw, context);
		missing.push(...expanded.missing);
		out[key] = expanded.value;
	}
	return out;
}
