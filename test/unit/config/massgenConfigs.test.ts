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
});
