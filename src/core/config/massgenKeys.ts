/**
 * MassGen v0.1.12 keys we accept without supporting them yet (massgen-reference §5). Each one
 * gets a warning naming it instead of the "unknown key" warning, and is left out of the parsed
 * config, so a MassGen config loads unchanged and a provider never receives e.g. `custom_tools`.
 */

/** Where in the document a table applies; `agent` is an entry of `agents` or the single `agent`. */
export type KeyLocation =
	| 'root'
	| 'agent'
	| 'backend'
	| 'orchestrator'
	| 'coordination'
	| 'context_path'
	| 'timeout_settings'
	| 'ui'
	| 'mcp_server'
	| 'permissions';

export interface UnsupportedKey {
	/** Why it is ignored or what to use instead; appended to the warning. */
	readonly hint?: string;
	/** Warn even when the value is a default (`false`, `0`, `null`, empty). */
	readonly always?: boolean;
	/** MassGen validates the key but does nothing with it either. */
	readonly ignoredByMassGen?: boolean;
}

const workspaceHint = 'agents always work in isolated copies of the workspace';
const commandHint = 'commands run locally, in a scratch copy of the workspace, behind the permission engine';
const notYet: UnsupportedKey = {};

function keys(names: readonly string[], entry: UnsupportedKey = notYet): Record<string, UnsupportedKey> {
	return Object.fromEntries(names.map((name) => [name, entry]));
}

/** Backend keys that MassGen passes to its tool layer, not to the model API. */
export const unsupportedBackendKeys: Readonly<Record<string, UnsupportedKey>> = {
	...keys([
		'enable_image_generation',
		'enable_audio_generation',
		'enable_file_generation',
		'enable_video_generation',
		'custom_tools',
	]),
	cwd: { hint: workspaceHint },
	permission_mode: {
		hint: "a coding agent's tools go through the permission engine and approvals, whatever the mode",
	},
	context_paths: { hint: 'use orchestrator.context_paths', always: true },
	...keys(
		[
			'command_line_execution_mode',
			'command_line_docker_image',
			'command_line_docker_memory_limit',
			'command_line_docker_cpu_limit',
			'command_line_docker_network_mode',
			'command_line_docker_enable_sudo',
			'command_line_docker_credentials',
			'command_line_docker_packages',
		],
		{ hint: commandHint },
	),
};

/** Unsupported MassGen keys by location. */
export const unsupportedKeys: Readonly<Record<KeyLocation, Readonly<Record<string, UnsupportedKey>>>> = {
	root: keys(['memory', 'session_id']),
	agent: keys(['memory']),
	backend: unsupportedBackendKeys,
	orchestrator: {
		...keys(['snapshot_storage', 'agent_temporary_workspace'], { hint: workspaceHint }),
		...keys(['debug_final_answer', 'dspy']),
		session_storage: { ignoredByMassGen: true },
		timeout: {
			hint: 'use top-level timeout_settings (orchestrator_timeout_seconds, agent_timeout_seconds)',
			always: true,
			ignoredByMassGen: true,
		},
	},
	coordination: keys([
		'enable_agent_task_planning',
		'max_tasks_per_plan',
		'task_planning_filesystem_mode',
		'enable_memory_filesystem_mode',
		'use_skills',
		'massgen_skills',
		'skills_directory',
	]),
	context_path: {},
	timeout_settings: {},
	ui: {
		...keys(['automation_mode', 'debug'], { hint: 'use the command-line flags' }),
		type: { hint: 'MassGen reads ui.display_type', ignoredByMassGen: true, always: true },
	},
	mcp_server: {
		security: { hint: 'the permission engine and approvals decide what MCP tools may do', always: true },
		timeout: { hint: 'use timeout_settings.mcp_tool_timeout_seconds' },
	},
	permissions: {},
};

/** `ui.display_type` values we honour; MassGen's others (`terminal`, `silent`) warn. */
export const supportedDisplayTypes: readonly string[] = ['rich_terminal', 'simple'];

/** MassGen's defaults for these keys are "feature off", which is what we do anyway. */
export function isDefaultLike(value: unknown): boolean {
	if (value === null || value === undefined || value === false || value === 0 || value === '') return true;
	if (Array.isArray(value)) return value.length === 0;
	return typeof value === 'object' && Object.keys(value).length === 0;
}
