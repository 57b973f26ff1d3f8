import { describe, expect, it } from 'vitest';
import { loadConfigText } from '../../../src/core/config/loadConfig.js';
import {
	claudeCodeEnvironment,
	claudeCodeOptions,
	defaultClaudeCodeTools,
	type ClaudeCodeLaunch,
} from '../../../src/core/providers/codingAgents/claudeCodeOptions.js';

const hostEnv = {
	PATH: '/usr/bin',
	HOME: '/home/u',
	OPENAI_API_KEY: 'sk-openai-other-agent',
	GITHUB_TOKEN: 'ghp_secret',
	ANTHROPIC_API_KEY: 'sk-ant-host',
};

function launch(yaml: string, extra: Partial<ClaudeCodeLaunch> = {}): ClaudeCodeLaunch {
	const { config, issues } = loadConfigText(yaml, 'team.yaml');
	expect(issues.filter((i) => i.severity === 'error')).toEqual([]);
	const backend = config!.agents[0]!.backend;
	return {
		settings: backend.coding_agent!,
		model: backend.model,
		hostEnv,
		cwd: '/tmp/scratch/agent1',
		systemPrompt: 'OUR COORDINATION PROMPT',
		mcpServers: {},
		canUseTool: async () => ({ behavior: 'deny', message: 'no' }),
		abortController: new AbortController(),
		...extra,
	};
}

describe('claude_code config → Agent SDK options', () => {
	it('maps every MassGen key; our prompt comes first and the role text after it', () => {
		const options = claudeCodeOptions(
			launch(
				[
					'agent:',
					'  backend:',
					'    type: claude_code',
					'    model: claude-opus-4-1-20250805',
					'    system_prompt: You review code.',
					'    append_system_prompt: Be brief.',
					'    allowed_tools: [Read, Grep]',
					'    disallowed_tools: ["Bash(rm*)"]',
					'    max_turns: 7',
					'    max_thinking_tokens: 4000',
					'    cli_path: /opt/claude',
				].join('\n'),
			),
		);
		expect(options).toMatchObject({
			cwd: '/tmp/scratch/agent1',
			model: 'claude-opus-4-1-20250805',
			systemPrompt: 'OUR COORDINATION PROMPT\n\nYou review code.\n\nBe brief.',
			tools: ['Read', 'Grep'],
			disallowedTools: ['Bash(rm*)'],
			maxTurns: 7,
			thinking: { type: 'enabled', budgetTokens: 4000 },
			pathToClaudeCodeExecutable: '/opt/claude',
		});
	});

	it('whatever the config says: every call asked, no settings files, no session history, no auto-allowed tools', () => {
		const options = claudeCodeOptions(
			launch('agent:\n  backend:\n    type: claude_code\n    permission_mode: bypassPermissions\n'),
		);
		expect(options.permissionMode).toBe('default');
		expect(options.settingSources).toEqual([]);
		expect(options.persistSession).toBe(false);
		expect(options.allowedTools).toBeUndefined();
		// No model in the config: the CLI picks; no tool list: read, search and edit only.
		expect(options).not.toHaveProperty('model');
		expect(options.tools).toEqual([...defaultClaudeCodeTools]);
		expect(options.tools).not.toContain('Bash');
	});

	it("the CLI's environment is replaced: no other agent's key or host token, only its own key and base URL", () => {
		const env = claudeCodeEnvironment({ hostEnv, apiKey: 'sk-ant-resolved', baseUrl: 'http://127.0.0.1:9' });
		expect(env).toEqual({
			PATH: '/usr/bin',
			HOME: '/home/u',
			ANTHROPIC_API_KEY: 'sk-ant-resolved',
			ANTHROPIC_BASE_URL: 'http://127.0.0.1:9',
			CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
			DISABLE_TELEMETRY: '1',
			DISABLE_ERROR_REPORTING: '1',
			DISABLE_AUTOUPDATER: '1',
		});
		// Without a resolved key the CLI uses its own login, never the host's variable behind our back.
		expect(claudeCodeEnvironment({ hostEnv })).not.toHaveProperty('ANTHROPIC_API_KEY');
	});
});
