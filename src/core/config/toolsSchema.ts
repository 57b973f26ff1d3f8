import { RE2JS } from 're2js';
import { z } from 'zod';
import { normaliseTransport } from '../mcp/mcpServerSpec.js';
import { ruleSyntaxError } from '../permissions/rules.js';
import { defaultPermissionSettings } from '../tools/permissionSettings.js';
import { isRecord } from './isRecord.js';

const toolNames = z.array(z.string().min(1));

/** One MCP server as MassGen writes it (`mcp_servers[]`); `name` comes from the key in the map form. */
export const mcpServerBody = z.object({
	type: z
		.string()
		.optional()
		.describe('stdio (default without url) or streamable-http (also http, streamableHttp; legacy sse).'),
	command: z.string().min(1).optional().describe('stdio: the executable.'),
	args: z.array(z.string()).optional(),
	env: z
		.record(z.string(), z.string())
		.optional()
		.describe('stdio: extra environment; values may use ${VAR}.'),
	cwd: z
		.string()
		.min(1)
		.optional()
		.describe('stdio: relative to the workspace (no ..); default: the workspace root.'),
	url: z.string().min(1).optional().describe('streamable-http / sse: the server URL; may use ${VAR}.'),
	headers: z.record(z.string(), z.string()).optional().describe('HTTP headers; values may use ${VAR}.'),
	allowed_tools: toolNames
		.optional()
		.describe('Only these tools (unprefixed names); overrides the backend list.'),
	exclude_tools: toolNames
		.optional()
		.describe('Never these tools (unprefixed names); added to the backend list.'),
	security: z.unknown().optional().describe('MassGen only; ignored: the permission engine decides.'),
});

export const mcpServerObject = mcpServerBody.extend({
	name: z
		.string()
		.regex(/^[A-Za-z0-9_-]+$/, 'MCP server names use letters, digits, - and _ only')
		.describe('Tools are exposed as mcp__<name>__<tool>.'),
});

type McpServerInput = z.output<typeof mcpServerObject>;

/** A list (MassGen) or a name → server map (Claude Code style). */
export const mcpServersSchema = z
	.union([z.array(mcpServerObject), z.record(z.string(), mcpServerBody)])
	.describe('MCP servers whose tools this agent may call (each call goes through the permission engine).');

export type McpServerConfig = {
	readonly name: string;
	readonly type: 'stdio' | 'streamable-http' | 'sse';
	readonly command?: string;
	readonly args?: readonly string[];
	readonly env?: Readonly<Record<string, string>>;
	readonly cwd?: string;
	readonly url?: string;
	readonly headers?: Readonly<Record<string, string>>;
	readonly allowed_tools?: readonly string[];
	readonly exclude_tools?: readonly string[];
};

/** Problems of a backend's `mcp_servers`, reported at their paths. */
export function checkMcpServers(
	value: unknown,
	issue: (path: (string | number)[], message: string, code: string, target?: 'key' | 'value') => void,
): void {
	const entries: [string | number, unknown, string][] = Array.isArray(value)
		? value.map((entry, index) => [
				index,
				entry,
				isRecord(entry) && typeof entry.name === 'string' ? entry.name : `#${index + 1}`,
			])
		: isRecord(value)
			? Object.entries(value).map(([name, entry]) => [name, entry, name])
			: [];
	const seen = new Set<string>();
	for (const [key, entry, name] of entries) {
		if (!isRecord(entry)) continue;
		const at = (...rest: string[]) => ['mcp_servers', key, ...rest];
		if (!Array.isArray(value) && !/^[A-Za-z0-9_-]+$/.test(name)) {
			issue(
				['mcp_servers', key],
				`MCP server name '${name}' may use letters, digits, - and _ only`,
				'mcp-server-name',
			);
		}
		if (seen.has(name)) {
			issue(
				at(...(Array.isArray(value) ? ['name'] : [])),
				`duplicate MCP server name '${name}'`,
				'mcp-duplicate-name',
			);
		}
		seen.add(name);
		const url = typeof entry.url === 'string' ? entry.url : undefined;
		const type = normaliseTransport(
			typeof entry.type === 'string' ? entry.type : undefined,
			url !== undefined,
		);
		if (type === undefined) {
			issue(
				at('type'),
				`unknown MCP server type '${String(entry.type)}': use stdio, streamable-http (or http) or sse`,
				'mcp-server-type',
				'value',
			);
			continue;
		}
		if (type === 'stdio' && typeof entry.command !== 'string') {
			issue(at(), `MCP server '${name}' (stdio) needs 'command'`, 'mcp-missing-command');
		}
		if (type !== 'stdio' && url === undefined) {
			issue(at(), `MCP server '${name}' (${type}) needs 'url'`, 'mcp-missing-url');
		}
		if (typeof entry.cwd === 'string' && entry.cwd.split(/[\\/]/).includes('..')) {
			issue(at('cwd'), `'cwd' may not contain '..'`, 'mcp-cwd', 'value');
		}
	}
}

/** The normalised list: names from map keys, one canonical `type`, MassGen's key names kept (the config reloads). */
export function normaliseMcpServers(value: z.output<typeof mcpServersSchema>): McpServerConfig[] {
	const list: McpServerInput[] = Array.isArray(value)
		? value
		: Object.entries(value).map(([name, body]) => ({ name, ...body }));
	return list.map(({ security: _ignored, type, ...rest }) => ({
		...rest,
		type: normaliseTransport(type, rest.url !== undefined) ?? 'stdio',
	}));
}

/**
 * A regex as MassGen's `command_line_*_commands` write them (matched at the start, like `re.match`),
 * in RE2 syntax: matched in linear time, so no command can make it backtrack.
 */
export const commandRegexList = z.array(
	z.string().refine((source) => {
		try {
			RE2JS.compile(source);
			return true;
		} catch {
			return false;
		}
	}, 'not a valid RE2 regular expression (lookahead and backreferences are not supported)'),
);

const rule = z.string().superRefine((pattern, ctx) => {
	const error = ruleSyntaxError(pattern);
	if (error !== null) ctx.addIssue({ code: 'custom', message: error });
});

/** Our top-level `permissions` section (not MassGen's): rules, approval timeout and the run budget. */
export const permissionsSchema = z.object({
	allow: z
		.array(rule)
		.default([])
		.describe('Rules that run without asking, e.g. command(npm test), mcp(github/get_*).'),
	ask: z.array(rule).default([]).describe('Rules that always ask, e.g. command(git *).'),
	deny: z
		.array(rule)
		.default([])
		.describe('Rules that never run, e.g. command(git push*), mcp(github/delete_*). Deny wins.'),
	approval_timeout_seconds: z
		.number()
		.positive()
		.default(defaultPermissionSettings.approvalTimeoutMs / 1000)
		.describe('An unanswered approval is denied after this.'),
	max_tool_calls: z
		.number()
		.int()
		.min(1)
		.nullable()
		.default(null)
		.describe('Per run, all agents and tools together; null = no cap.'),
	max_cost_usd: z
		.number()
		.positive()
		.nullable()
		.default(null)
		.describe('Per run (priced models only); null = no cap.'),
	command_sandbox: z
		.enum(['required', 'allow-unsandboxed'])
		.default('required')
		.describe(
			'run_command runs in an OS sandbox (bubblewrap, sandbox-exec); where none can start it is off, unless allow-unsandboxed: then commands can read and change anything your user can. Ignored in a config inside the workspace (a repository cannot opt its own commands out; use --unsandboxed-commands or massgen.commands.allowUnsandboxed).',
		),
	command_network: z
		.boolean()
		.default(false)
		.describe(
			'Give sandboxed commands the network (all or nothing; no per-domain rules). Ignored in a config inside the workspace.',
		),
});

export type PermissionsConfig = z.output<typeof permissionsSchema>;
