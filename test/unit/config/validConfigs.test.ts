import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inferBackendType } from '../../../src/core/config/backendSchema.js';
import { loadConfigFile, loadConfigText } from '../../../src/core/config/loadConfig.js';
import type { ConfigLoadResult } from '../../../src/core/config/loadConfig.js';
import { toBackendSettings } from '../../../src/core/config/toSettings.js';
import type { MassGenConfig } from '../../../src/core/config/schema.js';

const dir = join(__dirname, '..', '..', 'fixtures', 'config', 'valid');

function load(name: string): ConfigLoadResult {
	return loadConfigText(readFileSync(join(dir, name), 'utf8'), name);
}

function loaded(name: string): MassGenConfig {
	const result = load(name);
	expect(result.issues.filter((i) => i.severity === 'error')).toEqual([]);
	expect(result.config).toBeDefined();
	return result.config!;
}

describe('valid configs', () => {
	it('a single agent becomes agents[0] with the default id, and every default is applied', () => {
		const result = load('minimal-single.yaml');
		expect(result.issues).toEqual([]);
		expect(result.config).toEqual({
			agents: [{ id: 'agent1', backend: { type: 'openai', model: 'gpt-5-mini', options: {} } }],
			orchestrator: {
				context_paths: [],
				voting_sensitivity: 'lenient',
				answer_novelty_requirement: 'lenient',
				max_new_answers_per_agent: null,
				skip_coordination_rounds: false,
				max_rounds: null,
				max_tool_calls_per_turn: 40,
				protected_paths: [],
				secret_paths: [],
			},
			timeout_settings: {
				orchestrator_timeout_seconds: 1800,
				agent_timeout_seconds: null,
				presentation_timeout_seconds: 600,
				command_timeout_seconds: 120,
				mcp_tool_timeout_seconds: 120,
			},
			ui: { use_orchestrator_for_single_agent: true },
			permissions: {
				allow: [],
				ask: [],
				deny: [],
				approval_timeout_seconds: 300,
				max_tool_calls: null,
				max_cost_usd: null,
				command_sandbox: 'required',
				command_network: false,
			},
		});
	});

	it('reads every supported key; unknown backend keys land in options', () => {
		const result = load('full.yaml');
		expect(result.issues).toEqual([]);
		const [gpt, claude, azure] = result.config!.agents;
		expect(gpt).toEqual({
			id: 'gpt',
			system_message: 'You review code for correctness.',
			backend: {
				type: 'openai',
				model: 'gpt-5-mini',
				api_key: 'sk-test-config-key',
				temperature: 0.2,
				max_tokens: 4096,
				reasoning: { effort: 'low', summary: 'auto' },
				text: { verbosity: 'medium' },
				options: { top_p: 0.9, extra_body: { service_tier: 'flex' } },
			},
		});
		expect(claude!.backend.base_url).toBe('https://anthropic.example.test');
		// YAML 1.1 would read an unquoted date as a timestamp; an API version must stay text.
		expect(azure!.backend.api_version).toBe('2024-10-21');
		const { orchestrator, timeout_settings, ui } = result.config!;
		expect(orchestrator.context_paths).toEqual([
			{ path: 'docs', permission: 'read', protected_paths: [] },
			{ path: 'src', permission: 'write', protected_paths: ['src/generated'] },
		]);
		expect(orchestrator).toMatchObject({
			voting_sensitivity: 'balanced',
			answer_novelty_requirement: 'strict',
			max_new_answers_per_agent: 2,
			max_rounds: 6,
			max_tool_calls_per_turn: 25,
			protected_paths: ['.github', 'package-lock.json'],
		});
		expect(timeout_settings).toEqual({
			orchestrator_timeout_seconds: 300,
			agent_timeout_seconds: 90.5,
			presentation_timeout_seconds: 120,
			command_timeout_seconds: 30,
			mcp_tool_timeout_seconds: 45,
		});
		expect(claude!.backend).toMatchObject({
			mcp_servers: [
				{
					name: 'files',
					type: 'stdio',
					command: 'npx',
					args: ['-y', '@modelcontextprotocol/server-filesystem', '.'],
					exclude_tools: ['write_file'],
				},
				{
					name: 'github',
					type: 'streamable-http',
					url: 'https://api.example.test/mcp/',
					headers: { Authorization: 'Bearer ${GITHUB_TOKEN}' },
				},
			],
			allowed_tools: ['read_file', 'search_issues'],
			enable_command_execution: true,
			command_line_blocked_commands: ['rm\\b'],
		});
		expect(claude!.backend.options).toEqual({});
		expect(result.config!.permissions).toEqual({
			allow: ['command(npm test)'],
			ask: ['mcp(github/*)'],
			deny: ['command(git push*)'],
			approval_timeout_seconds: 60,
			max_tool_calls: 200,
			max_cost_usd: 2.5,
			command_sandbox: 'allow-unsandboxed',
			command_network: true,
		});
		expect(ui).toEqual({
			display_type: 'simple',
			logging_enabled: true,
			use_orchestrator_for_single_agent: false,
		});
	});

	it("loads MassGen's canonical three-agent config with every agent's provider tools, and no warning", () => {
		const result = load('massgen-three-agents.yaml');
		expect(result.config?.agents.map((a) => [a.id, a.backend.type, a.backend.model])).toEqual([
			['gemini2.5flash', 'gemini', 'gemini-2.5-flash'],
			['gpt5nano', 'openai', 'gpt-5-nano'],
			['grok3mini', 'grok', 'grok-4-fast'],
		]);
		// grok's web search runs on xAI's Responses API (xaiResponses.ts).
		expect(result.issues).toEqual([]);
		expect(result.config!.agents.map((a) => toBackendSettings(a).providerTools)).toEqual([
			{ webSearch: true },
			{ webSearch: true, codeExecution: true },
			{ webSearch: true },
		]);
		// The switches never reach the provider as options.
		for (const agent of result.config!.agents) expect(agent.backend.options).toEqual({});
	});

	it('scripted backends need no model and get the script with its defaults', () => {
		const config = loaded('scripted.yaml');
		expect(config.agents.map((a) => a.backend.model)).toEqual(['scripted', 'scripted-fast']);
		expect(config.agents[0]!.backend.script).toMatchObject({ latency_ms: 0, chunks: 4 });
		expect(config.agents[1]!.backend.script?.coordination).toEqual([{ vote: 'first' }]);
	});

	it('reads JSON (which is YAML) from a file', async () => {
		const result = await loadConfigFile(join(dir, 'team.json'));
		expect(result.issues).toEqual([]);
		expect(result.config?.agents.map((a) => a.backend.type)).toEqual(['openai', 'gemini']);
		expect(result.config?.orchestrator.voting_sensitivity).toBe('strict');
	});

	it('accepts anchors, merge keys, x- anchor holders and YAML 1.1 booleans like PyYAML', () => {
		const result = load('anchors-and-yaml11.yaml');
		expect(result.issues).toEqual([]);
		expect(result.config?.agents[1]!.backend).toMatchObject({
			type: 'claude',
			temperature: 0.3,
			max_tokens: 1000,
		});
		expect(result.config?.orchestrator.skip_coordination_rounds).toBe(false);
		expect(result.config?.ui.logging_enabled).toBe(true);
	});

	it('infers the backend type from the model name as MassGen does', () => {
		const cases: [string, string | undefined][] = [
			['gpt-5-mini', 'openai'],
			['o3', 'openai'],
			['o4-mini', 'openai'],
			['claude-sonnet-4-5', 'claude'],
			['gemini-2.5-pro', 'gemini'],
			['grok-4-fast', 'grok'],
			['llama3.2', undefined],
			['ollama-gpt-5', undefined],
		];
		for (const [model, type] of cases) expect([model, inferBackendType(model)]).toEqual([model, type]);
	});

	it('a missing file is one error at 1:1, not an exception', async () => {
		const result = await loadConfigFile(join(dir, 'nope.yaml'));
		expect(result.config).toBeUndefined();
		expect(result.issues).toEqual([
			expect.objectContaining({ severity: 'error', code: 'file-not-found', line: 1, col: 1 }),
		]);
		const directory = await loadConfigFile(dir);
		expect(directory.issues.map((i) => i.code)).toEqual(['file-unreadable']);
	});

	it('never throws, whatever the text', () => {
		for (const text of [
			'agents: *nope',
			'!!binary x',
			'[',
			'agents:\n  - backend: !!str',
			'\u0000',
			'a: &a [*a]',
		]) {
			expect(() => loadConfigText(text, 'x.yaml')).not.toThrow();
			expect(loadConfigText(text, 'x.yaml').config).toBeUndefined();
		}
	});

	it('locates nodes of the normalised config, also for a single `agent:`', () => {
		const single = load('minimal-single.yaml');
		expect(single.source?.locate(['agents', 0, 'backend'], 'key')).toEqual({ line: 2, col: 3 });
		const full = load('full.yaml');
		expect(full.source?.locate(['agents', 1, 'backend', 'model'])).toEqual({ line: 22, col: 14 });
		expect(full.source?.locate(['agents', 1, 'backend', 'missing'])).toEqual({ line: 20, col: 5 });
	});
});
