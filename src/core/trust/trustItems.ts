/**
 * Folder trust: what in a run's inputs a cloned repository could use to run a program on the host
 * or send the user's keys and environment to a host of its choosing. Only parts the workspace
 * wrote count: a team config inside the workspace (by path or real path, `isWorkspaceFile`), the
 * workspace's MCP files (`.vscode/mcp.json`, `.mcp.json`) and its `.env` where it names an
 * endpoint. The user's own config (outside the workspace, the shipped ones) is trusted as it is.
 * Both shells list these items for the user (the CLI's prompt, the editor's consent modal) and
 * pass the answer to `runSession` as a `WorkspaceTrust`, which enforces it (`trustGate.ts`).
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { resolveApiKey, type ApiKeySources } from '../config/apiKeys.js';
import { baseUrlVariables } from '../config/baseUrlVariables.js';
import type { AgentConfig, MassGenConfig } from '../config/schema.js';
import { isRecord } from '../config/isRecord.js';
import { isWorkspaceFile } from '../config/workspaceFile.js';
import { hostVariables, type McpServerSpec } from '../mcp/mcpServerSpec.js';
import { presetFor } from '../providers/spec/presets.js';
import { isInside, realpathOrNull } from '../util/paths.js';

/**
 * One part of the workspace's inputs that needs the user's trust.
 * - `stdio-server`: an MCP server the run would start as a process on the host;
 * - `cli-path`: a coding agent's CLI executable named by the workspace;
 * - `key-to-host`: an agent whose key (from the environment, `.env`, secret storage or the
 *   coding agent's own login) would go to a host the workspace chose;
 * - `host-environment`: an MCP server whose `url`/`headers` expand variables of the host
 *   environment (`${VAR}`, `${env:VAR}`), sending their values to its host;
 * - `data-to-host`: a host off this machine the workspace chose that the run's data would reach
 *   without the user's key: an agent on the config's own `api_key` or a keyless `base_url` (the
 *   question, attachments and whatever the agent reads go there, and that host then drives the
 *   agent's tools), or an HTTP MCP server (whatever the model passes its tools);
 * - `allow-rules`: `permissions.allow` rules in a workspace config, which would let tools run
 *   without asking (a config inside the workspace may only tighten the user's policy).
 */
export type TrustItemKind =
	'stdio-server' | 'cli-path' | 'key-to-host' | 'host-environment' | 'data-to-host' | 'allow-rules';

export interface TrustItem {
	readonly kind: TrustItemKind;
	/** The file that defines it: relative to the workspace when inside it, else absolute. */
	readonly file: string;
	/** 1-based position in `file` where known (the team config's YAML). */
	readonly line?: number;
	readonly col?: number;
	/** Whose part it is: `agent 'a1'`, `MCP server 'helper'`. */
	readonly subject: string;
	/**
	 * The part itself, in one line, exactly as it would be used (the command and its arguments, the
	 * executable, `OPENAI_API_KEY (environment) → http://host/v1`). Raw text from the repository:
	 * show it through `visibleText` (control characters could hide the rest of the line).
	 */
	readonly detail: string;
	/** What the item's hash covers: the parts as data (a changed command is a new item). */
	readonly parts: Readonly<Record<string, unknown>>;
}

/** Where a key or endpoint was found, for the listing (the hash ignores it). */
export type KeySource = 'environment' | '.env' | 'secret storage' | 'login';

/**
 * What a server needs trust for, whatever file defined it (the caller asks only for workspace
 * servers): a stdio server starts a process; an HTTP server with host variables in its url or
 * headers sends their values; any other HTTP server off this machine receives the model's tool
 * calls. Null: nothing (an HTTP server on this machine's loopback with literal url and headers).
 */
export function serverTrustNeed(
	spec: McpServerSpec,
	/** The workspace: files inside it that the command names are hashed into the item. */
	workspaceRoot?: string,
): {
	kind: 'stdio-server' | 'host-environment' | 'data-to-host';
	detail: string;
	parts: Record<string, unknown>;
} | null {
	if (spec.type === 'stdio') {
		const argv = [spec.command ?? '', ...(spec.args ?? [])];
		const env = Object.entries(spec.env ?? {}).map(([name, value]) => `${name}=${value}`);
		const cwd = spec.cwd === undefined ? '' : ` (in ${spec.cwd})`;
		const scripts =
			workspaceRoot === undefined
				? {}
				: workspaceScripts([...argv, spec.cwd ?? ''], resolve(workspaceRoot, spec.cwd ?? '.'), workspaceRoot);
		return {
			kind: 'stdio-server',
			detail: `runs ${[...env, ...argv.map(shellWord)].join(' ')}${cwd}${scriptsNote(scripts)}`,
			parts: {
				command: spec.command,
				args: spec.args ?? [],
				env: spec.env ?? {},
				cwd: spec.cwd ?? null,
				...(Object.keys(scripts).length > 0 ? { scripts } : {}),
			},
		};
	}
	const headers = Object.entries(spec.headers ?? {});
	const variables = [
		...new Set([...hostVariables(spec.url), ...headers.flatMap(([, value]) => hostVariables(value))]),
	];
	if (variables.length === 0) {
		if (isLoopback(spec.url)) return null;
		return {
			kind: 'data-to-host',
			detail: `connects to ${shownUrl(spec.url)}: whatever the model passes its tools goes there`,
			parts: { url: spec.url, headers: Object.fromEntries(headers) },
		};
	}
	return {
		kind: 'host-environment',
		detail: `sends ${variables.join(', ')} from your environment to ${shownUrl(spec.url)}`,
		parts: { url: spec.url, headers: Object.fromEntries(headers), variables },
	};
}

export interface TrustListingInputs {
	readonly workspaceRoot: string;
	/** The run's team config and the file it came from. */
	readonly config: MassGenConfig;
	readonly file: string;
	readonly keys: ApiKeySources;
	/** The workspace MCP files' servers, when the run reads them. */
	readonly workspaceServers?: readonly McpServerSpec[];
	/** Positions in the team config, where the caller loaded it with them (`ConfigSource.locate`). */
	readonly locate?: (path: readonly (string | number)[]) => { line: number; col: number };
	/**
	 * The workspace chose this config wherever it lies (VS Code's `massgen.config` from the
	 * workspace's settings, team kind `workspace`): its parts count as the workspace's.
	 */
	readonly chosenByWorkspace?: boolean;
}

/**
 * Every item of the run's inputs that needs the user's trust, in a stable order (config agents
 * in order, then the workspace MCP files' servers). Empty when the config is the user's own and
 * the workspace names no endpoint and no server with host variables.
 */
export function trustItems(inputs: TrustListingInputs): TrustItem[] {
	const root = inputs.workspaceRoot;
	const fromWorkspace = inputs.chosenByWorkspace === true || isWorkspaceFile(root, inputs.file);
	const configFile = displayPath(root, inputs.file);
	const items: TrustItem[] = [];
	inputs.config.agents.forEach((agent, index) => {
		const at = (path: (string | number)[]) => {
			const position = inputs.locate?.(['agents', index, 'backend', ...path]);
			return position ? { line: position.line, col: position.col } : {};
		};
		const subject = `agent '${agent.id}'`;
		if (fromWorkspace) {
			const cliPath = agent.backend.coding_agent?.cli_path;
			if (cliPath !== undefined) {
				const scripts = workspaceScripts([cliPath], root, root);
				items.push({
					kind: 'cli-path',
					file: configFile,
					...at(['cli_path']),
					subject,
					detail: `runs ${shellWord(cliPath)} as its ${agent.backend.type} CLI${scriptsNote(scripts)}`,
					parts: {
						agent: agent.id,
						type: agent.backend.type,
						cliPath,
						...(Object.keys(scripts).length > 0 ? { scripts } : {}),
					},
				});
			}
			(agent.backend.mcp_servers ?? []).forEach((server, serverIndex) => {
				const need = serverTrustNeed(
					{ ...server, origin: { kind: 'config', fromWorkspace } } as McpServerSpec,
					root,
				);
				if (need === null) return;
				items.push({
					kind: need.kind,
					file: configFile,
					...at(['mcp_servers', serverIndex]),
					subject: `MCP server '${server.name}' of ${subject}`,
					detail: need.detail,
					parts: { agent: agent.id, server: server.name, ...need.parts },
				});
			});
		}
		const key = keyToHost(agent, inputs.keys, fromWorkspace);
		const data = key || !fromWorkspace ? undefined : dataToHost(agent);
		if (data) {
			items.push({
				kind: 'data-to-host',
				file: configFile,
				...at([data.at]),
				subject,
				detail: `sends the run (your question, attachments and what it reads) to ${shownUrl(data.host)} on ${data.whose}`,
				parts: { agent: agent.id, type: agent.backend.type, host: data.host, ownKey: data.at === 'api_key' },
			});
		}
		if (key) {
			items.push({
				kind: 'key-to-host',
				file: key.from === '.env' ? '.env' : configFile,
				...(key.from === '.env' ? {} : at(['base_url'])),
				subject,
				detail: `sends ${key.what} to ${shownUrl(key.host)}`,
				parts: { agent: agent.id, type: agent.backend.type, host: key.host, variables: key.variables },
			});
		}
	});
	const allow = fromWorkspace ? inputs.config.permissions.allow : [];
	if (allow.length > 0) {
		const position = inputs.locate?.(['permissions', 'allow']);
		items.push({
			kind: 'allow-rules',
			file: configFile,
			...(position ? { line: position.line, col: position.col } : {}),
			subject: 'permissions.allow',
			detail: `lets these run without asking: ${allow.join(', ')}`,
			parts: { allow: [...allow] },
		});
	}
	for (const spec of inputs.workspaceServers ?? []) {
		const need = serverTrustNeed(spec, root);
		if (need === null) continue;
		const file = spec.origin.kind === 'workspace-file' ? spec.origin.file : configFile;
		items.push({
			kind: need.kind,
			file,
			subject: `MCP server '${spec.name}'`,
			detail: need.detail,
			parts: { server: spec.name, ...need.parts },
		});
	}
	return items;
}

interface KeyToHost {
	readonly host: string;
	/** Where the host came from: the team config, or the workspace's `.env` (an endpoint variable). */
	readonly from: 'config' | '.env';
	readonly variables: string[];
	/** `OPENAI_API_KEY (environment)`, `your Claude Code login`. */
	readonly what: string;
}

/**
 * Where an agent's key would go when the workspace chose the host: a `base_url` in a workspace
 * config other than the provider's own, or (any config) an endpoint variable only the workspace's
 * `.env` sets (`AZURE_OPENAI_ENDPOINT`). Only keys the workspace did not write count: its
 * config's own `api_key` is the repository's key, sent where the repository says.
 */
export function keyToHost(
	agent: AgentConfig,
	keys: ApiKeySources,
	fromWorkspace: boolean,
): KeyToHost | undefined {
	const backend = agent.backend;
	if (backend.api_key !== undefined) return undefined;
	const chosen = chosenHost(backend, keys, fromWorkspace);
	if (chosen === undefined) return undefined;
	const coding = codingAgentKey[backend.type];
	if (coding !== undefined) {
		// Without a key in the environment the CLI uses its own login, which it sends there too.
		const fromEnv = keys.env[coding.variable]?.trim();
		const what = fromEnv ? `${coding.variable} (environment)` : `your ${coding.login} login`;
		return { ...chosen, variables: [coding.variable], what };
	}
	const resolved = resolveApiKey(backend, keys);
	const from = resolved.source;
	if (resolved.key === undefined || from === 'config' || from === 'none') return undefined;
	const variable = resolved.variables.find((name) => sourceValues(keys, from)?.[name]?.trim());
	const source: KeySource = from === 'env' ? 'environment' : from === 'dotenv' ? '.env' : 'secret storage';
	return {
		...chosen,
		variables: resolved.variables,
		what: `${variable ?? resolved.variables[0]} (${source})`,
	};
}

/** Coding agents read their key themselves (or use their login): the variable they read. */
const codingAgentKey: Readonly<Record<string, { variable: string; login: string; host: string }>> = {
	claude_code: { variable: 'ANTHROPIC_API_KEY', login: 'Claude Code', host: 'https://api.anthropic.com' },
	codex: { variable: 'OPENAI_API_KEY', login: 'Codex', host: 'https://api.openai.com/v1' },
};

function chosenHost(
	backend: AgentConfig['backend'],
	keys: ApiKeySources,
	fromWorkspace: boolean,
): Pick<KeyToHost, 'host' | 'from'> | undefined {
	// Gemini's SDK honours a request's `httpOptions.baseUrl`, which a backend's pass-through keys
	// (`http_options`, or inside `provider_options`) reach (passThrough.ts, camelCaseKeys).
	const override = fromWorkspace ? transportOverride(backend.options) : undefined;
	if (override !== undefined) return { host: override, from: 'config' };
	if (backend.base_url !== undefined) {
		if (!fromWorkspace) return undefined;
		const own = codingAgentKey[backend.type]?.host ?? presetFor(backend.type)?.baseUrl;
		if (own !== undefined && sameUrl(own, backend.base_url)) return undefined;
		return { host: backend.base_url, from: 'config' };
	}
	const variable = Object.hasOwn(baseUrlVariables, backend.type) ? baseUrlVariables[backend.type] : undefined;
	if (variable === undefined) return undefined;
	// The user's own settings win over the workspace's `.env` (`resolveBaseUrl`'s order).
	if (keys.secrets?.[variable]?.trim() || keys.env[variable]?.trim()) return undefined;
	const url = keys.dotenv?.[variable]?.trim();
	return url ? { host: url, from: '.env' } : undefined;
}

/** The host a pass-through `http_options` names (any spelling that camel-cases to it), if any. */
function transportOverride(options: Readonly<Record<string, unknown>>): string | undefined {
	const letters = (key: string) => key.replace(/[^a-z0-9]/gi, '').toLowerCase();
	for (const source of [options, options['provider_options'], options['providerOptions']]) {
		if (!isRecord(source)) continue;
		for (const [key, value] of Object.entries(source)) {
			if (letters(key) !== 'httpoptions') continue;
			const url = isRecord(value)
				? Object.entries(value).find(([name]) => letters(name) === 'baseurl')?.[1]
				: undefined;
			return typeof url === 'string' ? url : `the host its ${key} choose`;
		}
	}
	return undefined;
}

/**
 * Where a workspace config's agent sends the run without any key of the user's: its own literal
 * `api_key` (the repository's account, whose stored requests and logs it can read) at the
 * provider's or its own host, or a keyless `base_url` off this machine. Loopback hosts (a local
 * model server) are this machine's own.
 */
function dataToHost(
	agent: AgentConfig,
): { host: string; whose: string; at: 'api_key' | 'base_url' } | undefined {
	const backend = agent.backend;
	if (backend.type === 'scripted' || backend.type === 'vscode_lm') return undefined;
	const own = codingAgentKey[backend.type]?.host ?? presetFor(backend.type)?.baseUrl;
	const chosen =
		backend.base_url === undefined || (own !== undefined && sameUrl(own, backend.base_url))
			? undefined
			: backend.base_url;
	if (chosen !== undefined && isLoopback(chosen)) return undefined;
	const host = chosen ?? own ?? `the ${backend.type} provider`;
	if (backend.api_key !== undefined) return { host, whose: 'the config’s own key', at: 'api_key' };
	return chosen === undefined ? undefined : { host, whose: 'no key of yours', at: 'base_url' };
}

/**
 * A URL as the listing shows it: as written, plus the host it really names when that differs
 * (a look-alike `api.openаi.com` with a Cyrillic `а` is `api.xn--open-…`: the user must see that
 * it is not OpenAI's).
 */
function shownUrl(url: string | undefined): string {
	if (url === undefined) return '?';
	let host: string;
	try {
		host = new URL(url).hostname;
	} catch {
		return url;
	}
	const written = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?([^/?#]*)/i.exec(url)?.[1] ?? '';
	const writtenHost = written.replace(/:\d*$/, '').toLowerCase();
	return writtenHost === host ? url : `${url} (host ${host}: not the name it looks like)`;
}

/** A URL on this machine's loopback (`localhost`, `127.0.0.0/8`, `::1`). */
export function isLoopback(url: string | undefined): boolean {
	let host: string;
	try {
		host = new URL(url ?? '').hostname.toLowerCase();
	} catch {
		return false;
	}
	// Names other than `localhost` itself are resolved by whatever DNS the network offers
	// (`evil.localhost` may be sent there), so only literal loopback addresses count.
	return host === 'localhost' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

function sourceValues(keys: ApiKeySources, source: 'secrets' | 'env' | 'dotenv') {
	return source === 'secrets' ? keys.secrets : source === 'env' ? keys.env : keys.dotenv;
}

function sameUrl(a: string, b: string): boolean {
	return a.replace(/\/+$/, '').toLowerCase() === b.replace(/\/+$/, '').toLowerCase();
}

function displayPath(root: string, file: string): string {
	return isInside(root, file) ? relative(root, file) : file;
}

/** Files above this size are named by size alone (hashing them would stall the run's start). */
const maxScriptBytes = 16 * 1024 * 1024;

/**
 * The workspace files a command line names (its program, a script argument, `--opt=./file`), by
 * path relative to the workspace, with their sha256: trust given to `node tools/mcp.js` then
 * covers that script's content, so a `git pull` that changes it is asked about again.
 */
function workspaceScripts(words: readonly string[], base: string, root: string): Record<string, string> {
	const realRoot = realpathOrNull(root);
	const found: Record<string, string> = {};
	for (const word of words.flatMap((w) => [w, ...(w.includes('=') ? [w.slice(w.indexOf('=') + 1)] : [])])) {
		if (word === '' || word.startsWith('-')) continue;
		const real = realpathOrNull(resolve(base, word));
		if (real === null || realRoot === null || !isInside(realRoot, real)) continue;
		try {
			const stat = statSync(real);
			if (!stat.isFile()) continue;
			found[relative(realRoot, real)] =
				stat.size > maxScriptBytes
					? `${stat.size} bytes`
					: createHash('sha256').update(readFileSync(real)).digest('hex');
		} catch {
			// Unreadable: named by the command line alone.
		}
	}
	return found;
}

function scriptsNote(scripts: Readonly<Record<string, string>>): string {
	const names = Object.entries(scripts).map(([path, hash]) => `${path} ${hash.slice(0, 12)}`);
	return names.length === 0 ? '' : `; with ${names.join(', ')} as they are now`;
}

/** A word as a POSIX shell would need it quoted, so the listing shows where arguments split. */
function shellWord(word: string): string {
	return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
