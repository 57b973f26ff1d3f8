import { describe, expect, it } from 'vitest';
import { loadConfigText } from '../../../src/core/config/loadConfig.js';
import { toBackendSettings } from '../../../src/core/config/toSettings.js';

/** MassGen's enable_web_search / enable_code_execution / enable_code_interpreter → per-agent backend settings. */
const yaml = `agents:
  - id: gpt
    backend: { type: openai, model: gpt-5-nano, enable_web_search: true, enable_code_interpreter: true }
  - id: claude
    backend: { type: claude, model: claude-sonnet-4-5, enable_web_search: true, enable_code_execution: true }
  - id: gem
    backend: { type: gemini, model: gemini-2.5-flash, enable_web_search: true }
  - id: router
    backend: { type: chatcompletion, base_url: 'https://openrouter.ai/api/v1', model: x/y, enable_web_search: true }
  - id: local
    backend: { type: ollama, model: llama3, enable_web_search: true, enable_code_execution: true }
  - id: grok
    backend: { type: grok, model: grok-4-fast, enable_web_search: true, enable_code_execution: false }
`;

describe('provider tool keys in the config', () => {
	const result = loadConfigText(yaml, 'team.yaml');
	const settings = (id: string) => toBackendSettings(result.config!.agents.find((a) => a.id === id)!);

	it('map into the backend settings of each agent whose backend has them, never into provider options', () => {
		expect(settings('gpt').providerTools).toEqual({ webSearch: true, codeExecution: true });
		expect(settings('claude').providerTools).toEqual({ webSearch: true, codeExecution: true });
		expect(settings('gem').providerTools).toEqual({ webSearch: true });
		expect(settings('router').providerTools).toEqual({ webSearch: true });
		for (const id of ['gpt', 'claude', 'gem', 'router', 'local', 'grok']) {
			expect(Object.keys(settings(id).options)).toEqual([]);
		}
		expect(settings('local').providerTools).toBeUndefined();
		// xAI's Responses API (xaiResponses.ts).
		expect(settings('grok').providerTools).toEqual({ webSearch: true });
	});

	it('validate names each key a backend cannot honour, with the reason, and no other', () => {
		expect(result.issues.filter((i) => i.severity === 'error')).toEqual([]);
		expect(result.issues.map((i) => [i.line, i.message])).toEqual([
			[
				11,
				"'enable_web_search' in agents[4].backend is ignored: type ollama is an OpenAI-compatible chat server with no provider-side web search we know of",
			],
			[
				11,
				"'enable_code_execution' in agents[4].backend is ignored: type ollama is an OpenAI-compatible chat server with no provider-side code execution we know of",
			],
		]);
	});
});
