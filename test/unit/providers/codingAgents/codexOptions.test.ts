import { describe, expect, it } from 'vitest';
import { loadConfigText } from '../../../../src/core/config/loadConfig.js';
import {
	codexEnvironment,
	codexOptions,
	type CodexLaunch,
} from '../../../../src/core/providers/codingAgents/codexOptions.js';

const hostEnv = {
	PATH: '/usr/bin',
	HOME: '/home/u',
	ANTHROPIC_API_KEY: 'sk-ant-other-agent',
	GITHUB_TOKEN: 'ghp_secret',
	OPENAI_API_KEY: 'sk-openai-host',
	CODEX_HOME: '/home/u/.codex',
	TMPDIR: '/tmp',
};

function launch(yaml: string, extra: Partial<CodexLaunch> = {}): CodexLaunch {
	const { config, issues } = loadConfigText(yaml, 'team.yaml');
	expect(issues.filter((i) => i.severity === 'error')).toEqual([]);
	const backend = config!.agents[0]!.backend;
	return {
		settings: backend.coding_agent!,
		model: backend.model,
		...(backend.reasoning?.effort === undefined ? {} : { reasoningEffort: backend.reasoning.effort }),
		...(backend.base_url === undefined ? {} : { baseUrl: backend.base_url }),
		hostEnv,
		codexHome: '/home/u/.cache/massgen/run1/agent1-codex',
		cwd: '/tmp/scratch/agent1',
		systemPrompt: 'OUR COORDINATION PROMPT',
		mcpServers: { massgen: { url: 'http://127.0.0.1:4000/mcp' } },
		...extra,
	};
}

const codexAgent = (...lines: string[]) => ['agent:', '  backend:', '    type: codex', ...lines].join('\n');

describe('codex config → Codex SDK options', () => {
	it('maps model, reasoning effort, role text and cli_path; our prompt comes first', () => {
		const { client, thread, ignoredKeys } = codexOptions(
			launch(
				codexAgent(
					'    model: gpt-5.5',
					'    reasoning: { effort: high }',
					'    system_prompt: You review code.',
					'    append_system_prompt: Be brief.',
					'    cli_path: /opt/codex',
				),
			),
		);
		expect(thread).toMatchObject({ model: 'gpt-5.5', modelReasoningEffort: 'high' });
		const instructions = String(client.config!['developer_instructions']).split('\n\n');
		expect(instructions[0]).toBe('OUR COORDINATION PROMPT');
		// Codex's own prompt speaks of its shell; ours says there is none, and where commands go.
		expect(instructions[1]).toMatch(/^You have no shell here\..*run_command tool of the massgen server/);
		expect(instructions.slice(2)).toEqual(['You review code.', 'Be brief.']);
		expect(client.codexPathOverride).toBe('/opt/codex');
		expect(ignoredKeys).toEqual([]);
	});

	it('model default leaves the CLI its own model; effort none becomes Codex minimal', () => {
		const { thread } = codexOptions(launch(codexAgent('    reasoning: { effort: none }')));
		expect(thread).not.toHaveProperty('model');
		expect(thread.modelReasoningEffort).toBe('minimal');
		const plain = codexOptions(launch(codexAgent('    model: default')));
		expect(plain.thread).not.toHaveProperty('modelReasoningEffort');
		expect(plain.client).not.toHaveProperty('codexPathOverride');
	});

	it('names the claude_code keys Codex cannot honour', () => {
		const { ignoredKeys } = codexOptions(
			launch(codexAgent('    allowed_tools: [Read]', '    max_turns: 3', '    max_thinking_tokens: 100')),
		);
		expect(ignoredKeys).toEqual(['allowed_tools', 'max_turns', 'max_thinking_tokens']);
	});

	it('the baseline no config can change: sandbox, approvals, folder, provider, telemetry', () => {
		const { client, thread } = codexOptions(
			launch(codexAgent('    base_url: http://127.0.0.1:9/v1'), { apiKey: 'sk-agent-own' }),
		);
		expect(thread).toMatchObject({
			workingDirectory: '/tmp/scratch/agent1',
			skipGitRepoCheck: true,
			sandboxMode: 'workspace-write',
			approvalPolicy: 'never',
			networkAccessEnabled: false,
			webSearchMode: 'disabled',
		});
		expect(client.config).toMatchObject({
			model_provider: 'massgen',
			model_providers: {
				massgen: { base_url: 'http://127.0.0.1:9/v1', wire_api: 'responses', env_key: 'OPENAI_API_KEY' },
			},
			project_doc_max_bytes: 0,
			sandbox_workspace_write: {
				network_access: false,
				exclude_slash_tmp: true,
				exclude_tmpdir_env_var: true,
			},
			shell_environment_policy: { inherit: 'core' },
			analytics: { enabled: false },
			feedback: { enabled: false },
			check_for_update_on_startup: false,
			history: { persistence: 'none' },
			// No shell (commands go through our run_command), shell snapshot, hooks or image reads of any path.
			features: {
				multi_agent: false,
				goals: false,
				shell_tool: false,
				unified_exec: false,
				hooks: false,
				view_image: false,
				shell_snapshot: false,
			},
			// Our own servers: the CLI calls them without asking (we check every call ourselves) and waits for them.
			mcp_servers: {
				massgen: { url: 'http://127.0.0.1:4000/mcp', required: true, default_tools_approval_mode: 'approve' },
			},
		});
		// No API key, base URL or home goes through the SDK's own options (they would bypass ours).
		expect(client).not.toHaveProperty('apiKey');
		expect(client).not.toHaveProperty('baseUrl');
		const readOnly = codexOptions(launch(codexAgent(), { sandbox: 'read-only' }));
		expect(readOnly.thread.sandboxMode).toBe('read-only');
		const noUrl = codexOptions(launch(codexAgent()));
		expect(noUrl.client.config).toMatchObject({
			model_providers: { massgen: { base_url: 'https://api.openai.com/v1' } },
		});
	});

	it('our bridge: its URL with the bearer token in a variable (never in an argument), waited for and trusted', () => {
		const bridge = { name: 'massgen', url: 'http://127.0.0.1:5000/mcp', token: 'tok-123' };
		const { client } = codexOptions(launch(codexAgent(), { mcpServers: {}, bridge }));
		expect(client.config).toMatchObject({
			mcp_servers: {
				massgen: {
					url: bridge.url,
					bearer_token_env_var: 'MASSGEN_BRIDGE_TOKEN',
					required: true,
					default_tools_approval_mode: 'approve',
					tool_timeout_sec: 86_400,
				},
			},
		});
		expect(client.env).toMatchObject({ MASSGEN_BRIDGE_TOKEN: 'tok-123' });
		expect(JSON.stringify(client.config)).not.toContain('tok-123');
	});

	it("the environment is replaced: a private CODEX_HOME, the agent's own key, never another's", () => {
		const env = codexEnvironment({
			apiKey: 'sk-agent-own',
			hostEnv,
			codexHome: '/home/u/.cache/massgen/run1/agent1-codex',
		});
		expect(env).toEqual({
			PATH: '/usr/bin',
			HOME: '/home/u',
			CODEX_HOME: '/home/u/.cache/massgen/run1/agent1-codex',
			OPENAI_API_KEY: 'sk-agent-own',
		});
		// Without a key of its own the host's is not passed either (the CLI then says which is missing).
		expect(codexEnvironment({ hostEnv, codexHome: '/h' })).not.toHaveProperty('OPENAI_API_KEY');
		expect(codexOptions(launch(codexAgent())).client.env).not.toHaveProperty('GITHUB_TOKEN');
	});
});
