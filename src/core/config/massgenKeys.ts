/**
 * MassGen v0.1.12 keys we accept without supporting them yet. Each one
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
	/** Why it is ignored or what to use instead (given the key's value); appended to the warning. */
	readonly hint?: string | ((value: unknown) => string);
	/**
	 * `mapped`: we do something else that serves the same purpose (the hint says what);
	 * `not-applied`: what it asks for has no counterpart here (the hint says why and what bounds it instead);
	 * `python-only`: it names what runs inside MassGen's Python process (the hint says what).
	 * Default: not supported yet.
	 */
	readonly kind?: 'mapped' | 'not-applied' | 'python-only';
	/** Warn even when the value is a default (`false`, `0`, `null`, empty). */
	readonly always?: boolean;
	/** MassGen validates the key but does nothing with it either. */
	readonly ignoredByMassGen?: boolean;
}

const workspaceHint = 'agents always work in isolated copies of the workspace';
const notYet: UnsupportedKey = {};
const pythonOnly = (hint: string): UnsupportedKey => ({ kind: 'python-only', hint });
const mapped = (hint: UnsupportedKey['hint']): UnsupportedKey => ({ kind: 'mapped', hint });
const notApplied = (hint: string): UnsupportedKey => ({ kind: 'not-applied', hint });

/** MassGen's Docker mode for commands, and what our OS sandbox (docs/tools-and-sandbox.md) does instead. */
const dockerKeys: Readonly<Record<string, UnsupportedKey>> = {
	command_line_execution_mode: mapped(
		(value) =>
			`commands${value === 'docker' ? ', instead of a container,' : ''} run in this machine's OS sandbox ` +
			'(bubblewrap on Linux, sandbox-exec on macOS) on a scratch copy of the workspace, behind the permission engine',
	),
	command_line_docker_network_mode: mapped((value) =>
		value === 'none'
			? 'commands have no network, as in the sandbox by default'
			: `'${String(value)}' turns on permissions.command_network when the config does not set it, for every agent's ` +
				"commands (the sandbox's network is all or nothing, per run); a config inside the workspace cannot turn it on",
	),
	command_line_docker_image: notApplied("commands use this machine's own tools (the sandbox has no image)"),
	command_line_docker_packages: notApplied(
		"commands use what this machine has installed (the sandbox's / is read-only)",
	),
	command_line_docker_memory_limit: notApplied(
		'bubblewrap sets no memory limit (a cgroup would need systemd delegation); timeout_settings.command_timeout_seconds bounds each command',
	),
	command_line_docker_cpu_limit: notApplied(
		'bubblewrap sets no CPU limit (rlimits cap CPU seconds, not cores); timeout_settings.command_timeout_seconds bounds each command',
	),
	command_line_docker_enable_sudo: notApplied(
		'commands never get root: they run unprivileged, every capability dropped',
	),
	command_line_docker_credentials: notApplied(
		'commands get an allow-listed environment (PATH, HOME in the scratch, locale), never credentials',
	),
};

function keys(names: readonly string[], entry: UnsupportedKey = notYet): Record<string, UnsupportedKey> {
	return Object.fromEntries(names.map((name) => [name, entry]));
}

/** Backend keys that MassGen passes to its tool layer, not to the model API. */
export const unsupportedBackendKeys: Readonly<Record<string, UnsupportedKey>> = {
	...keys(
		[
			'enable_image_generation',
			'enable_audio_generation',
			'enable_file_generation',
			'enable_video_generation',
		],
		pythonOnly("MassGen's multimodal generation tools"),
	),
	custom_tools: pythonOnly(
		'Python functions MassGen imports and calls; give the agent an MCP server instead',
	),
	upload_files: notApplied(
		'attach the files to the question instead (massgen run --attach PATH, or Add Context… in the panel)',
	),
	cwd: mapped(workspaceHint),
	permission_mode: {
		hint: "a coding agent's tools go through the permission engine and approvals, whatever the mode",
	},
	context_paths: { hint: 'use orchestrator.context_paths', always: true },
	...dockerKeys,
};

/** Unsupported MassGen keys by location. */
export const unsupportedKeys: Readonly<Record<KeyLocation, Readonly<Record<string, UnsupportedKey>>>> = {
	root: {
		memory: pythonOnly("MassGen's persistent memory (mem0)"),
		session_id: notYet,
		display: { hint: "MassGen reads 'ui'", ignoredByMassGen: true, always: true },
	},
	agent: {
		memory: pythonOnly("MassGen's persistent memory (mem0)"),
		append_system_prompt: {
			hint: 'at the agent level; use system_message (a coding agent takes it in its backend)',
			ignoredByMassGen: true,
			always: true,
		},
	},
	backend: unsupportedBackendKeys,
	orchestrator: {
		...keys(['snapshot_storage', 'agent_temporary_workspace'], mapped(workspaceHint)),
		debug_final_answer: notYet,
		dspy: pythonOnly('DSPy question paraphrasing'),
		session_storage: { ignoredByMassGen: true },
		timeout: {
			hint: 'use top-level timeout_settings (orchestrator_timeout_seconds, agent_timeout_seconds)',
			always: true,
			ignoredByMassGen: true,
		},
	},
	coordination: {
		checklist_criteria_preset: {
			hint: 'MassGen’s named criteria sets are not bundled here: write the criteria in checklist_criteria_inline',
		},
		...keys([
			'enable_agent_task_planning',
			'max_tasks_per_plan',
			'task_planning_filesystem_mode',
			'enable_memory_filesystem_mode',
			'use_skills',
			'massgen_skills',
			'skills_directory',
		]),
	},
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
