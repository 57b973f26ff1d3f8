/**
 * One MCP server as the run starts it, whatever file defined it: MassGen's `mcp_servers`
 * entries, VS Code's `.vscode/mcp.json` (`servers`) and Claude Code's `.mcp.json` (`mcpServers`).
 */
import { isSecretName, urlCredentials } from '../secrets/runSecrets.js';

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

/** Whether a server was defined by the workspace (its team config or MCP files), not the user. */
export function isWorkspaceServer(spec: Pick<McpServerSpec, 'origin'>): boolean {
	return (
		spec.origin.kind === 'workspace-file' || (spec.origin.kind === 'config' && spec.origin.fromWorkspace)
	);
}

/**
 * Whether a server may start in this workspace under VS Code Workspace Trust (`trusted`): an
 * untrusted workspace's own servers start no process and get none of the host's environment
 * (folder trust, `core/trust`, refuses the same servers earlier and also in a trusted one).
 */
export function startRefusal(spec: McpServerSpec, trusted: boolean): string | null {
	if (trusted || !isWorkspaceServer(spec)) return null;
	const where = spec.origin.kind === 'workspace-file' ? spec.origin.file : 'the workspace team config';
	if (spec.type === 'stdio') {
		return `MCP server '${spec.name}' (from ${where}) was not started: the workspace is not trusted, and stdio servers start processes`;
	}
	const variables = [spec.url, ...Object.values(spec.headers ?? {})].flatMap(hostVariables);
	if (variables.length === 0) return null;
	return `MCP server '${spec.name}' (from ${where}) was not connected: the workspace is not trusted, and its url or headers use ${[...new Set(variables)].join(', ')} from your environment`;
}

/** Variables that expand to the workspace's own path, not to a value of the user's. */
const workspacePathVariables = new Set(['workspaceFolder', 'workspaceRoot']);

/**
 * The host environment variables `${…}` in `text` would read (`${VAR}`, `${env:VAR}`, and
 * `${userHome}` as `HOME`); the workspace's path and `${input:…}` (never answered) are not.
 */
export function hostVariables(text: string | undefined): string[] {
	if (text === undefined) return [];
	const names: string[] = [];
	for (const match of text.matchAll(/\$\{([^}]+)\}/g)) {
		const name = match[1]!.trim();
		if (workspacePathVariables.has(name) || name.startsWith('input:')) continue;
		names.push(name === 'userHome' ? 'HOME' : name.replace(/^env:/, ''));
	}
	return names;
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
			missing.push(
				`${whole} (VS Code input prompts are not supported; put the value in an environment variable)`,
			);
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
export function expandRecord(
	record: Readonly<Record<string, string>> | undefined,
	context: ExpandContext,
	missing: string[],
): Record<string, string> {
	const out: Record<string, string> = {};
	for (const [key, raw] of Object.entries(record ?? {})) {
		const expanded = expandVariables(raw, context);
		missing.push(...expanded.missing);
		out[key] = expanded.value;
	}
	return out;
}

/** Variables that expand to the workspace's own paths, not to the caller's values. */
const workspaceVariables = new Set(['workspaceFolder', 'workspaceRoot', 'userHome']);

/**
 * The secret values a server's definition resolves to, for the run's redactor: what `${VAR}`
 * expands to in its command, args, env, url and headers (the workspace paths aside), whole env and
 * header values under credential-like names (`Authorization`, `API_TOKEN`…), and URL credentials.
 */
export function specSecrets(
	spec: Pick<McpServerSpec, 'command' | 'args' | 'env' | 'url' | 'headers'>,
	context: ExpandContext,
): string[] {
	const found: string[] = [];
	const expanded = (raw: string): string => {
		for (const match of raw.matchAll(/\$\{([^}]+)\}/g)) {
			const name = match[1]!.trim().replace(/^env:/, '');
			if (!workspaceVariables.has(name)) found.push(context.env[name] ?? '');
		}
		return expandVariables(raw, context).value;
	};
	for (const raw of [spec.command, spec.url, ...(spec.args ?? [])]) {
		if (raw !== undefined) found.push(...urlCredentials(expanded(raw)));
	}
	for (const [name, raw] of [...Object.entries(spec.env ?? {}), ...Object.entries(spec.headers ?? {})]) {
		const value = expanded(raw);
		found.push(...urlCredentials(value));
		if (!isSecretName(name)) continue;
		// `Authorization: Bearer <token>`: the token alone may be echoed too.
		found.push(value, value.replace(/^(Bearer|Basic|Token)\s+/i, ''));
	}
	return found;
}
