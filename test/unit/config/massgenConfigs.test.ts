import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfigFile, loadConfigText } from '../../../src/core/config/loadConfig.js';
import { agentRoleLines, toRunToolSettings } from '../../../src/core/config/toSettings.js';
import type { ConfigLoadResult } from '../../../src/core/config/loadConfig.js';

/** Configs written in the style of MassGen v0.1.12's examples, one per kind of key or backend they use. */
const dir = join(__dirname, '..', '..', 'fixtures', 'configs', 'massgen', 'examples');

/** `line:col`, severity, code and a fragment of the message, for every issue, in order. */
type Expected = readonly [at: string, severity: 'error' | 'warning', code: string, fragment: string];

const backendKey =
	(fate: string) =>
	(at: string, key: string, agent: number, fragment: string): Expected => [
		at,
		'warning',
		'unsupported-key',
		`MassGen key '${key}' in agents[${agent}].backend ${fate}: ${fragment}`,
	];
const mapped = backendKey('is mapped');
const notApplied = (at: string, key: string, fragment: string) =>
	backendKey('is not applied')(at, key, 0, fragment);
const pythonOnly = (at: string, key: string, fragment: string) =>
	backendKey('is Python-only and is ignored')(at, key, 0, fragment);

const cases: Readonly<Record<string, { valid: boolean; issues: readonly Expected[] }>> = {
	'ag2_single_coder.yaml': {
		valid: true,
		issues: [
			[
				'5:7',
				'warning',
				'ag2-mapped',
				"agents[0].backend: AG2 is a Python framework MassGen runs in its own process; this agent runs as a claude agent of model 'claude-sonnet-4-20250514' with agent_config's system_message, run_command (in the sandbox) for its code_execution_config, the first of its 2 llm_config entries",
			],
			[
				'27:3',
				'warning',
				'unsupported-key',
				"'ui.type' is ignored (MassGen ignores it too): MassGen reads ui.display_type",
			],
		],
	},
	'ag2_groupchat.yaml': {
		valid: false,
		issues: [
			[
				'10:7',
				'error',
				'python-only',
				"an AG2 group chat (type ag2 with group_config) runs inside MassGen's Python process and cannot run here",
			],
		],
	},
	'roles.yaml': {
		valid: false,
		issues: [
			[
				'10:69',
				'error',
				'invalid',
				"agents[1].tools[4]: unknown tool 'write_fille' (did you mean 'write_file'?) (known: read_file, list_directory, search_files",
			],
		],
	},
	'backend_types.yaml': {
		valid: true,
		issues: [
			mapped('12:7', 'cwd', 0, 'agents always work in isolated copies of the workspace'),
			[
				'66:3',
				'warning',
				'unsupported-key',
				"MassGen key 'snapshot_storage' in orchestrator is mapped: agents always work in isolated copies",
			],
			[
				'67:3',
				'warning',
				'unsupported-key',
				"MassGen key 'agent_temporary_workspace' in orchestrator is mapped: agents always work in isolated copies",
			],
			[
				'74:5',
				'warning',
				'unsupported-key',
				"MassGen key 'enable_agent_task_planning' in orchestrator.coordination is not supported yet and is ignored",
			],
		],
	},
	'docker_command_line.yaml': {
		valid: true,
		issues: [
			mapped(
				'8:7',
				'command_line_execution_mode',
				0,
				"commands, instead of a container, run in this machine's OS sandbox",
			),
			notApplied('9:7', 'command_line_docker_image', "commands use this machine's own tools"),
			notApplied('10:7', 'command_line_docker_memory_limit', 'bubblewrap sets no memory limit'),
			notApplied('11:7', 'command_line_docker_cpu_limit', 'bubblewrap sets no CPU limit'),
			mapped('12:7', 'command_line_docker_network_mode', 0, "'bridge' turns on permissions.command_network"),
			notApplied('13:7', 'command_line_docker_enable_sudo', 'commands never get root'),
			notApplied('14:7', 'command_line_docker_packages', 'commands use what this machine has installed'),
			notApplied('16:7', 'command_line_docker_credentials', 'commands get an allow-listed environment'),
			mapped('23:7', 'command_line_execution_mode', 1, "commands run in this machine's OS sandbox"),
			mapped(
				'24:7',
				'command_line_docker_network_mode',
				1,
				'commands have no network, as in the sandbox by default',
			),
		],
	},
	'python_only_tools.yaml': {
		valid: true,
		issues: [
			[
				'4:5',
				'warning',
				'unsupported-key',
				"MassGen key 'memory' in agents[0] is Python-only and is ignored: MassGen's persistent memory",
			],
			pythonOnly(
				'9:7',
				'custom_tools',
				'Python functions MassGen imports and calls; give the agent an MCP server instead',
			),
			pythonOnly('13:7', 'enable_image_generation', "MassGen's multimodal generation tools"),
			[
				'14:7',
				'warning',
				'unsupported-key',
				"MassGen key 'upload_files' in agents[0].backend is not applied: attach the files to the question instead (massgen run --attach PATH",
			],
			[
				'17:3',
				'warning',
				'unsupported-key',
				"MassGen key 'dspy' in orchestrator is Python-only and is ignored: DSPy",
			],
			[
				'19:1',
				'warning',
				'unsupported-key',
				"'display' is ignored (MassGen ignores it too): MassGen reads 'ui'",
			],
		],
	},
	'role_on_coding_agent.yaml': {
		valid: false,
		issues: [
			[
				'4:5',
				'error',
				'role-coding-agent',
				"agents[0].role: 'role' cannot limit a coding agent (type claude_code): it runs its own tools; limit them with allowed_tools / disallowed_tools",
			],
		],
	},
	'rate_limits.yaml': {
		valid: false,
		issues: [
			['1:1', 'error', 'python-only', "this is MassGen's rate-limit table (provider → model → rpm/tpm/rpd)"],
		],
	},
};

async function load(name: string): Promise<ConfigLoadResult> {
	return loadConfigFile(join(dir, name));
}

describe("configs in the style of MassGen's examples", () => {
	it('covers every fixture', () => {
		expect(readdirSync(dir).sort()).toEqual(Object.keys(cases).sort());
	});

	for (const [name, expected] of Object.entries(cases)) {
		it(`${name}: ${expected.valid ? 'valid' : 'invalid'}, each key implemented, mapped or named`, async () => {
			const result = await load(name);
			expect(result.config !== undefined).toBe(expected.valid);
			const got = result.issues.map((i) => ({
				at: `${i.line}:${i.col}`,
				severity: i.severity,
				code: i.code,
				message: i.message,
			}));
			expect(got.map((i) => i.message)).toHaveLength(expected.issues.length);
			expected.issues.forEach(([at, severity, code, fragment], index) => {
				expect(got[index]).toMatchObject({ at, severity, code });
				expect(got[index]!.message).toContain(fragment);
			});
		});
	}

	it('an AG2 agent becomes a plain agent of its first llm_config, with its system message and run_command', async () => {
		const [coder, gemini] = (await load('ag2_single_coder.yaml')).config!.agents;
		expect(coder).toEqual({
			id: 'ag2_coder',
			system_message: 'You are a helpful coding assistant.',
			backend: {
				type: 'claude',
				model: 'claude-sonnet-4-20250514',
				temperature: 0.3,
				enable_command_execution: true,
				options: {},
			},
		});
		expect(gemini!.backend.type).toBe('gemini');
	});

	it('a role and a tools list reach the run tools of their agent only', async () => {
		const text = readFileSync(join(dir, 'roles.yaml'), 'utf8').replace(', write_fille', '');
		const { config, issues } = loadConfigText(text, 'roles.yaml');
		expect(issues).toEqual([]);
		const tools = toRunToolSettings(config!, { configFromWorkspace: false }).agents;
		expect(agentRoleLines(config!)).toEqual([
			'reviewer: read-only (no write tools, no run_command, only read-only MCP tools)',
			'tester: only read_file, search_files, run_command, mcp__github__*',
		]);
		expect(tools.get('reviewer')?.role).toEqual({ readOnly: true });
		expect(tools.get('tester')?.role).toEqual({
			readOnly: false,
			tools: ['read_file', 'search_files', 'run_command', 'mcp__github__*'],
		});
	});

	it("Docker's bridge or host network turns on command_network unless the config says; a workspace config cannot", async () => {
		const text = readFileSync(join(dir, 'docker_command_line.yaml'), 'utf8');
		const network = (yaml: string, fromWorkspace = false) =>
			toRunToolSettings(loadConfigText(yaml, 'docker.yaml').config!, { configFromWorkspace: fromWorkspace })
				.permissions.commandNetwork;
		expect(network(text)).toBe(true);
		expect(network(text.replace('"bridge"', '"none"'))).toBe(false);
		// Outside docker mode MassGen ignores the docker keys, and so do we.
		expect(network(text.replace('"docker"', '"local"'))).toBe(false);
		expect(network(`${text}\npermissions:\n  command_network: false\n`)).toBe(false);
		expect(network(text, true)).toBe(false);
	});

	it('reads each backend type with its keys, and the coordination keys we implement', async () => {
		const { config } = await load('backend_types.yaml');
		const [gpt, gemini, , , cerebras, local, glm, azure] = config!.agents;
		expect(config!.agents.map((agent) => agent.backend.type)).toEqual([
			'openai',
			'gemini',
			'grok',
			'claude',
			'chatcompletion',
			'lmstudio',
			'zai',
			'azure_openai',
			'vllm',
			'sglang',
		]);
		expect(gpt!.backend).toMatchObject({
			enable_command_execution: true,
			command_line_allowed_commands: ['python.*', 'pytest.*'],
			command_line_blocked_commands: ['rm.*'],
			reasoning: { effort: 'medium', summary: 'auto' },
			text: { verbosity: 'medium' },
		});
		expect(gemini!.backend.mcp_servers?.map((server) => [server.name, server.type])).toEqual([
			['weather', 'stdio'],
			['docs', 'streamable-http'],
		]);
		expect(cerebras!.backend.base_url).toBe('https://api.cerebras.ai/v1');
		expect(local!.backend.base_url).toBeUndefined(); // the preset's http://localhost:1234/v1
		expect(glm!.backend.options).toEqual({ top_p: 0.7 });
		expect(azure!.backend.base_url).toBeUndefined(); // AZURE_OPENAI_ENDPOINT at run time
		expect(config!.orchestrator.coordination).toMatchObject({
			enable_planning_mode: true,
			max_orchestration_restarts: 1,
		});
		expect(config!.orchestrator.context_paths).toEqual([
			{ path: 'src', permission: 'read', protected_paths: [] },
		]);
		expect(config!.timeout_settings.orchestrator_timeout_seconds).toBe(600);
	});
});
