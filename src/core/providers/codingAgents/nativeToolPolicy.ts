/**
 * Which of Claude Code's own tools a call may use (its `canUseTool` hook: permission mode
 * `default` asks for every call). The native tools stand in for our workspace tools and follow the
 * same offer: reading when the call offers `read_file`, editing when it offers `write_file`, and
 * only inside the agent's private folder, and never a secret path (the workspace's secret policy,
 * on the path as given and as resolved, and hard links to secret files by identity). Commands go through our `run_command` (offered over MCP:
 * the permission engine, approvals and the command sandbox decide), never the CLI's Bash; the web
 * tools are refused (no agent of ours fetches the web on its own).
 */
import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { DependencyMount } from '../../exec/scratchSpace.js';
import { isRootOrInside } from '../../util/paths.js';
import type { SecretPaths } from '../../workspace/secretPaths.js';
import { inodeKey } from '../../workspace/secretScan.js';

export type NativeVerdict = { readonly allow: true } | { readonly allow: false; readonly reason: string };

export interface NativeToolContext {
	/** The private folder (a real path). */
	readonly folder: string;
	/** The names of the tools the current call offers (ours: `read_file`, `write_file`, `run_command`…). */
	readonly offered: ReadonlySet<string>;
	/** The MCP server name our tools are served under (`mcp__<name>__<tool>`). */
	readonly server: string;
	/** The workspace's secret policy: no native tool touches a path it names. */
	readonly secrets?: SecretPaths;
	/** `dev:ino` of secret files with other names (`SecretIndex.linkedInodes`). */
	readonly linkedInodes?: ReadonlySet<string>;
	/** Dependency folders bound into the folder in the sandbox: a path there is checked at its source. */
	readonly dependencyMounts?: readonly DependencyMount[];
}

const readTools = new Set(['Read', 'Grep', 'Glob', 'LS']);
const editTools = new Set(['Edit', 'Write', 'MultiEdit', 'NotebookEdit']);
/** Harmless bookkeeping of the CLI's own. */
const innerTools = new Set(['TodoWrite']);

export function decideNativeTool(
	name: string,
	input: Record<string, unknown>,
	context: NativeToolContext,
): NativeVerdict {
	if (name.startsWith(`mcp__${context.server}__`)) return { allow: true };
	if (innerTools.has(name)) return { allow: true };
	if (readTools.has(name)) {
		if (!context.offered.has('read_file')) {
			return refuse(`${name}: reading files is not offered in this step`);
		}
		return insideFolder(name, input, context);
	}
	if (editTools.has(name)) {
		if (!context.offered.has('write_file')) {
			return refuse(`${name}: editing files is not allowed in this step`);
		}
		return insideFolder(name, input, context);
	}
	if (name === 'Bash' || name === 'BashOutput' || name === 'KillShell') {
		return refuse(
			context.offered.has('run_command')
				? `${name} is not available here: run commands with mcp__${context.server}__run_command (sandboxed, under the user's permission rules)`
				: `${name} is not available here: commands are off for this agent`,
		);
	}
	if (name === 'WebFetch' || name === 'WebSearch') {
		return refuse(`${name} is not available: agents of this team do not reach the web on their own`);
	}
	return refuse(`${name} is not available in this team`);
}

function insideFolder(
	name: string,
	input: Record<string, unknown>,
	context: NativeToolContext,
): NativeVerdict {
	const { folder } = context;
	// Glob's `pattern` and Grep's `glob` are paths too: Claude Code honours an absolute pattern
	// (`/srv/**/*` listed every file there), so they must stay relative and below the folder.
	const pattern = name === 'Glob' ? input['pattern'] : name === 'Grep' ? input['glob'] : undefined;
	if (typeof pattern === 'string' && leavesFolder(pattern)) {
		return refuse(
			`${name}: the pattern ${pattern} reaches outside your working folder ${folder}; use a relative pattern`,
		);
	}
	const given = [input['file_path'], input['path'], input['notebook_path']].find(
		(value): value is string => typeof value === 'string' && value !== '',
	);
	if (given === undefined) return { allow: true };
	const target = isAbsolute(given) ? given : resolve(folder, given);
	const real = realNearest(target);
	if (!isRootOrInside(folder, real)) {
		return refuse(`${name}: ${given} is outside your working folder ${folder}; use paths inside it`);
	}
	const secret = secretReason(target, real, context);
	return secret === null ? { allow: true } : refuse(`${name}: ${given} ${secret}`);
}

/** An absolute pattern, one from the home folder, or one with a `..` segment (any separator). */
function leavesFolder(pattern: string): boolean {
	return (
		isAbsolute(pattern) ||
		/^[a-zA-Z]:/.test(pattern) ||
		pattern.startsWith('~') ||
		pattern.split(/[\\/]/).includes('..')
	);
}

/** Why the path (as given, resolved) is secret, or null. */
function secretReason(target: string, real: string, context: NativeToolContext): string | null {
	const { folder, secrets } = context;
	// A link that does not resolve on the host may still in the sandbox (into a bound dependency folder): its text counts too.
	for (const path of [target, real, danglingTarget(real)]) {
		if (path === undefined) continue;
		const rel = relative(folder, path).split(sep).join('/');
		const pattern = rel === '' || rel.startsWith('..') ? null : (secrets?.match(rel) ?? null);
		if (pattern !== null) {
			return `is a secret path (matches '${pattern}'): agents never read, list, search or write secret files`;
		}
	}
	if (context.linkedInodes === undefined || context.linkedInodes.size === 0) return null;
	// In the sandbox a dependency folder is the real one bound in: on the host, its source holds the file.
	const mount = context.dependencyMounts?.find((candidate) => isRootOrInside(candidate.target, real));
	const onHost = mount === undefined ? real : join(mount.source, relative(mount.target, real));
	const info = (() => {
		try {
			return lstatSync(onHost);
		} catch {
			return null;
		}
	})();
	if (info?.isFile() && info.nlink > 1 && context.linkedInodes.has(inodeKey(info))) {
		return 'is a hard link to a secret file: agents never read or write secret files';
	}
	return null;
}

/** The real path of `target`, or of its nearest existing ancestor (a file about to be created). */
function realNearest(target: string): string {
	let current = target;
	for (;;) {
		try {
			const real = realpathSync(current);
			return current === target ? real : resolve(real, target.slice(current.length + 1));
		} catch {
			const parent = dirname(current);
			if (parent === current) return target;
			current = parent;
		}
	}
}

/** Where a link that cannot be resolved points (lexically), or undefined. */
function danglingTarget(path: string): string | undefined {
	try {
		if (!lstatSync(path).isSymbolicLink()) return undefined;
		return resolve(dirname(path), readlinkSync(path));
	} catch {
		return undefined;
	}
}

function refuse(reason: string): NativeVerdict {
	return { allow: false, reason };
}
