/**
 * MCP servers the workspace already declares for other tools: VS Code's `.vscode/mcp.json`
 * (`servers`, JSON with comments) and Claude Code's `.mcp.json` (`mcpServers`). Read only when
 * the caller enables it (a setting); in an untrusted workspace their stdio servers never start
 * (see `startRefusal`).
 */
import { join } from 'node:path';
import { NotRegularFileError, readRegularFile } from '../util/regularFile.js';
import { normaliseTransport, type McpServerSpec } from './mcpServerSpec.js';

export interface WorkspaceMcpServers {
	readonly servers: McpServerSpec[];
	/** Entries skipped and files that could not be read, one line each. */
	readonly notices: string[];
}

/** A server list is a few KB; a larger file is refused with a notice. */
const maxMcpFileBytes = 1024 * 1024;

const files = [
	{ path: '.vscode/mcp.json', key: 'servers' },
	{ path: '.mcp.json', key: 'mcpServers' },
] as const;

/** Reads both files (missing files are fine). A server named in both comes from `.vscode/mcp.json`. */
export async function readWorkspaceMcpServers(root: string): Promise<WorkspaceMcpServers> {
	const servers: McpServerSpec[] = [];
	const notices: string[] = [];
	for (const file of files) {
		let text: string;
		try {
			const { bytes, size } = await readRegularFile(join(root, file.path), maxMcpFileBytes);
			if (size > maxMcpFileBytes) {
				notices.push(`${file.path}: ${size} bytes, over the 1 MiB limit; its MCP servers are ignored`);
				continue;
			}
			text = bytes.toString('utf8');
		} catch (error) {
			// Missing is fine; a FIFO or device is said (it is never opened for a blocking read).
			if (NotRegularFileError.is(error)) {
				notices.push(`${file.path}: ${error.kind}, not a regular file; its MCP servers are ignored`);
			}
			continue;
		}
		let parsed: unknown;
		try {
			parsed = JSON.parse(stripJsonComments(text));
		} catch (error) {
			notices.push(`${file.path}: not valid JSON (${(error as Error).message}); its MCP servers are ignored`);
			continue;
		}
		const map = isRecord(parsed) ? parsed[file.key] : undefined;
		if (map === undefined) continue;
		if (!isRecord(map)) {
			notices.push(`${file.path}: '${file.key}' must be an object of servers by name`);
			continue;
		}
		for (const [rawName, entry] of Object.entries(map)) {
			const spec = toSpec(rawName, entry, file.path, notices);
			if (spec === undefined) continue;
			if (servers.some((existing) => existing.name === spec.name)) {
				notices.push(`${file.path}: MCP server '${spec.name}' is already defined; this one is ignored`);
				continue;
			}
			servers.push(spec);
		}
	}
	return { servers, notices };
}

function toSpec(rawName: string, entry: unknown, file: string, notices: string[]): McpServerSpec | undefined {
	const name = rawName.replace(/[^A-Za-z0-9_-]/g, '_');
	if (!isRecord(entry)) {
		notices.push(`${file}: MCP server '${rawName}' is not an object`);
		return undefined;
	}
	const url = typeof entry.url === 'string' ? entry.url : undefined;
	const type = normaliseTransport(typeof entry.type === 'string' ? entry.type : undefined, url !== undefined);
	if (type === undefined) {
		notices.push(
			`${file}: MCP server '${rawName}' has an unknown type '${String(entry.type)}' (use stdio, http or sse)`,
		);
		return undefined;
	}
	if (type === 'stdio' && typeof entry.command !== 'string') {
		notices.push(`${file}: MCP server '${rawName}' has no 'command'`);
		return undefined;
	}
	if (type !== 'stdio' && url === undefined) {
		notices.push(`${file}: MCP server '${rawName}' has no 'url'`);
		return undefined;
	}
	if (entry.envFile !== undefined) {
		notices.push(`${file}: MCP server '${rawName}': 'envFile' is not supported; use 'env'`);
	}
	return {
		name,
		type,
		...(typeof entry.command === 'string' ? { command: entry.command } : {}),
		...(Array.isArray(entry.args) ? { args: entry.args.map(String) } : {}),
		...(isRecord(entry.env) ? { env: stringRecord(entry.env) } : {}),
		...(typeof entry.cwd === 'string' ? { cwd: entry.cwd } : {}),
		...(url !== undefined ? { url } : {}),
		...(isRecord(entry.headers) ? { headers: stringRecord(entry.headers) } : {}),
		origin: { kind: 'workspace-file', file },
	};
}

/** Removes `//` and `/* *\/` comments and trailing commas outside strings (VS Code's JSONC). */
export function stripJsonComments(text: string): string {
	let out = '';
	let inString = false;
	for (let i = 0; i < text.length; i++) {
		const ch = text[i]!;
		if (inString) {
			out += ch;
			if (ch === '\\') out += text[++i] ?? '';
			else if (ch === '"') inString = false;
			continue;
		}
		if (ch === '"') {
			inString = true;
			out += ch;
		} else if (ch === '/' && text[i + 1] === '/') {
			while (i < text.length && text[i] !== '\n') i++;
			out += '\n';
		} else if (ch === '/' && text[i + 1] === '*') {
			const end = text.indexOf('*/', i + 2);
			i = end < 0 ? text.length : end + 1;
		} else {
			out += ch;
		}
	}
	return out.replace(/,(\s*[}\]])/g, '$1');
}

function stringRecord(value: Record<string, unknown>): Record<string, string> {
	return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, String(item)]));
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}
