import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfigFile } from '../../../src/core/config/loadConfig.js';
import { toBackendSettings, toRunToolSettings } from '../../../src/core/config/toSettings.js';

const dir = join(__dirname, '..', '..', 'fixtures', 'configs', 'massgen');

/** `line:col severity code` and a fragment of the message, for every issue, in order. */
type Expected = readonly [at: string, severity: 'error' | 'warning', code: string, fragment: string];

const notRunnable = (at: string, type: string): Expected => [
	at,
	'warning',
	'unsupported-value',
	`type '${type}' (a coding agent) cannot take part in a run yet: a run leaves this agent out`,
];
const cwd = (at: string, where: string): Expected => [
	at,
	'warning',
	'unsupported-key',
	`MassGen key 'cwd' in ${where} is mapped: agents always work in isolated copies`,
];
const permissionMode = (at: string, where: string): Expected => [
	at,
	'warning',
	'unsupported-key',
	`MassGen key 'permission_mode' in ${where} is not supported yet and is ignored: a coding agent's tools go through the permission engine and approvals`,
];
const workspaces = (snapshots: string, temp: string): Expected[] => [
	[
		snapshots,
		'warning',
		'unsupported-key',
		"MassGen key 'snapshot_storage' in orchestrator is mapped: agents always work in isolated copies",
	],
	[temp, 'warning', 'unsupported-key', "MassGen key 'agent_temporary_workspace' in orchestrator"],
];

/** `massgen validate`'s outcome for configs written like MassGen v0.1.12's `claude_code` examples. */
const cases: Readonly<Record<string, { valid: boolean; issues: readonly Expected[] }>> = {
	'claude_code_single.yaml': {
		valid: true,
		issues: [cwd('6:7', 'agents[0].backend'), ...workspaces('26:3', '27:3')],
	},
	'claude_code_discord_mcp.yaml': {
		valid: true,
		issues: [cwd('5:5', 'agent.backend'), permissionMode('6:5', 'agent.backend')],
	},
	'two_claude_code_filesystem_multiturn.yaml': {
		valid: true,
		issues: [
			cwd('6:7', 'agents[0].backend'),
			cwd('12:7', 'agents[1].backend'),
			...workspaces('16:5', '17:5'),
			[
				'18:5',
				'warning',
				'unsupported-key',
				"'orchestrator.session_storage' is ignored (MassGen ignores it too)",
			],
		],
	},
	'gpt5mini_cc_mixed_team.yaml': {
		valid: true,
		issues: [
			cwd('11:7', 'agents[0].backend'),
			cwd('16:7', 'agents[1].backend'),
			...workspaces('19:5', '20:5'),
		],
	},
	'claude_code_all_keys.yaml': {
		valid: true,
		issues: [
			cwd('6:7', 'agents[0].backend'),
			permissionMode('9:7', 'agents[0].backend'),
			// No provider to pass it to: named, not passed on silently.
			['18:7', 'warning', 'unknown-key', "unknown key 'setting_sources' in agents[0].backend; ignored"],
		],
	},
	'codex_and_gemini_cli.yaml': {
		valid: true,
		issues: [notRunnable('9:13', 'gemini_cli')],
	},
	'claude_code_keys_on_api_agent.yaml': {
		valid: false,
		issues: [
			[
				'7:7',
				'error',
				'coding-agent-key',
				"agents[0].backend.max_turns: 'max_turns' is only allowed with a coding agent",
			],
			[
				'8:7',
				'error',
				'coding-agent-key',
				"'system_prompt' is only allowed with a coding agent (type: claude_code, codex, gemini_cli)",
			],
		],
	},
};

describe('MassGen claude_code configs', () => {
	it('covers every fixture', () => {
		expect(
			readdirSync(dir)
				.filter((name) => name.endsWith('.yaml'))
				.sort(),
		).toEqual(Object.keys(cases).sort());
	});

	for (const [name, expected] of Object.entries(cases)) {
		it(`${name}: ${expected.valid ? 'valid' : 'invalid'}, each key mapped or named at its line:col`, async () => {
			const result = await loadConfigFile(join(dir, name));
			expect(result.config !== undefined).toBe(expected.valid);
			const got = result.issues.map((i) => ({
				at: `${i.line}:${i.col}`,
				severity: i.severity,
				code: i.code,
				message: i.message,
			}));
			expect(got).toHaveLength(expected.issues.length);
			expected.issues.forEach(([at, severity, code, fragment], index) => {
				expect(got[index]).toMatchObject({ at, severity, code });
				expect(got[index]!.message).toContain(fragment);
			});
		});
	}

	it('maps every claude_code key into the coding agent settings, and no model means the CLI default', async () => {
		const { config } = await loadConfigFile(join(dir, 'claude_code_all_keys.yaml'));
		const reviewer = config!.agents[0]!;
		expect(reviewer.backend.coding_agent).toEqual({
			allowed_tools: ['Read', 'Grep', 'Glob', 'Edit', 'mcp__ide__getDiagnostics'],
			disallowed_tools: ['Bash(rm*)', 'Bash(sudo*)'],
			system_prompt: 'You are a code reviewer and testing specialist.\n',
			append_system_prompt: 'Prefer small, tested changes.',
			max_turns: 10,
			max_thinking_tokens: 8000,
			cli_path: '/opt/claude/bin/claude',
		});
		const settings = toBackendSettings(reviewer);
		expect(settings).toMatchObject({
			type: 'claude_code',
			model: 'claude-opus-4-1-20250805',
			apiKey: 'sk-ant-config-key',
		});
		// Ignored keys never reach the agent; the unknown one is dropped too (a CLI has no options).
		expect(Object.keys(settings.options)).toEqual(['coding_agent']);

		const mixed = await loadConfigFile(join(dir, 'gpt5mini_cc_mixed_team.yaml'));
		expect(mixed.config!.agents[1]!.backend).toMatchObject({ type: 'claude_code', model: 'default' });
	});

	it("a coding agent's allowed_tools names its native tools, never a filter on our MCP tools", async () => {
		const { config } = await loadConfigFile(join(dir, 'claude_code_discord_mcp.yaml'));
		const tools = toRunToolSettings(config!, { configFromWorkspace: false }).agents.get(
			'claude_code_discord_mcp',
		)!;
		expect(tools.allowedTools).toBeUndefined();
		expect(tools.mcpServers.map((server) => server.name)).toEqual(['discord']);
		expect(config!.agents[0]!.backend.coding_agent?.allowed_tools).toEqual([
			'Read',
			'Write',
			'Bash',
			'LS',
			'WebSearch',
		]);
	});
});
