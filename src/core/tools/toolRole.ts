import type { ExtraTool } from './guardedToolbox.js';
import type { Toolbox } from './types.js';

/**
 * An agent's role (the config's agent-level `role` and `tools`): which of its tools it is offered.
 * Workflow tools (`new_answer`, `vote`, the evaluator's) are not in a toolbox and stay.
 */
export interface ToolRole {
	/** `role: read-only`: no write tools, no `run_command`, only MCP tools their server marks read-only. */
	readonly readOnly: boolean;
	/** `tools: [...]`: only these names (a trailing `*` matches a prefix, e.g. `mcp__github__*`). */
	readonly tools?: readonly string[];
}

/** The workspace tools that change the agent's copy. */
export const writeToolNames: readonly string[] = ['write_file', 'edit_file', 'delete_file'];

/** Every tool name a `tools` list may give besides MCP tools (`mcp__server__tool`). */
export const roleToolNames: readonly string[] = [
	'read_file',
	'list_directory',
	'search_files',
	'view_answer_changes',
	...writeToolNames,
	'run_command',
];

/** Why `name` is not this agent's to use, or null. `extra` is the tool when it is not a workspace tool. */
export function roleRefusal(role: ToolRole, name: string, extra: ExtraTool | undefined): string | null {
	if (role.readOnly) {
		if (writeToolNames.includes(name)) return 'its role is read-only (no write tools)';
		if (extra !== undefined && extra.readOnly !== true) {
			return name === 'run_command'
				? 'its role is read-only (no commands)'
				: 'its role is read-only (only MCP tools their server marks read-only)';
		}
	}
	if (role.tools !== undefined && !role.tools.some((allowed) => matches(allowed, name))) {
		return `it may use only ${role.tools.join(', ')}`;
	}
	return null;
}

/** One line for summaries (validate, the team description): `read-only; only read_file, search_files`. */
export function describeRole(role: ToolRole): string {
	const parts = role.readOnly ? ['read-only (no write tools, no run_command, only read-only MCP tools)'] : [];
	if (role.tools !== undefined) parts.push(`only ${role.tools.join(', ')}`);
	return parts.join('; ');
}

/** The short form lanes and the run log show: `read-only`, `tools: read_file, search_files`. */
export function shortRole(role: ToolRole): string {
	return [role.readOnly ? 'read-only' : '', role.tools ? `tools: ${role.tools.join(', ')}` : '']
		.filter(Boolean)
		.join('; ');
}

function matches(pattern: string, name: string): boolean {
	return pattern.endsWith('*') ? name.startsWith(pattern.slice(0, -1)) : pattern === name;
}

/**
 * The toolbox less what the role leaves out: those tools are never offered, and a call by name
 * (a model may guess one) is refused as a tool error before anything runs or is charged.
 */
export function restrictToolbox(toolbox: Toolbox, role: ToolRole, extra: readonly ExtraTool[]): Toolbox {
	const extraByName = new Map(extra.map((tool) => [tool.definition.name, tool]));
	const refusal = (name: string) => roleRefusal(role, name, extraByName.get(name));
	return {
		definitions: toolbox.definitions.filter((definition) => refusal(definition.name) === null),
		// Still "has" a refused tool, so that a call by name gets the reason, not "unknown tool".
		has: (name) => toolbox.has(name),
		async execute(name, args, signal) {
			const why = toolbox.has(name) ? refusal(name) : null;
			if (why !== null) return { text: `${name} is not available to this agent: ${why}`, isError: true };
			return toolbox.execute(name, args, signal);
		},
	};
}
