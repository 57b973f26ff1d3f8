/**
 * Which of Claude Code's own tools a call may use (its `canUseTool` hook: permission mode
 * `default` asks for every call). The native tools stand in for our workspace tools and follow the
 * same offer: reading when the call offers `read_file`, editing when it offers `write_file`, and
 * only inside the agent's private folder. Commands go through our `run_command` (offered over MCP:
 * the permission engine, approvals and the command sandbox decide), never the CLI's Bash; the web
 * tools are refused (no agent of ours fetches the web on its own).
 */
import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { isRootOrInside } from '../../util/paths.js';

export type NativeVerdict = { readonly allow: true } | { readonly allow: false; readonly reason: string };

export interface NativeToolContext {
	/** The private folder (a real path). */
	readonly folder: string;
	/** The names of the tools the current call offers (ours: `read_file`, `write_file`, `run_command`…). */
	readonly offered: ReadonlySet<string>;
	/** The MCP server name our tools are served under (`mcp__<name>__<tool>`). */
	readonly server: string;
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
		return insideFolder(name, input, context.folder);
	}
	if (editTools.has(name)) {
		if (!context.offered.has('write_file')) {
			return refuse(`${name}: editing files is not allowed in this step`);
		}
		return insideFolder(name, input, context.folder);
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

function insideFolder(name: string, input: Record<string, unknown>, folder: string): NativeVerdict {
	const given = [input['file_path'], input['path'], input['notebook_path']].find(
		(value): value is string => typeof value === 'string' && value !== '',
	);
	if (given === undefined) return { allow: true };
	const target = isAbsolute(given) ? given : resolve(folder, given);
	if (isRootOrInside(folder, realNearest(target))) return { allow: true };
	return refuse(`${name}: ${given} is outside your working folder ${folder}; use paths inside it`);
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

function refuse(reason: string): NativeVerdict {
	return { allow: false, reason };
}
