import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createModel } from '../../../src/core/providers/createModel.js';
import { keyVariablesFor, presetFor, providerPresets } from '../../../src/core/providers/spec/presets.js';
import { ProviderError } from '../../../src/core/providers/spec/providerError.js';

const providersDir = join(__dirname, '..', '..', '..', 'src', 'core', 'providers');

describe('createModel', () => {
	it.each([
		['openai', 'OpenAIResponsesModel'],
		['claude', 'AnthropicModel'],
		['gemini', 'GeminiModel'],
		['chatcompletion', 'ChatCompletionsModel'],
		['grok', 'ChatCompletionsModel'],
		['openrouter', 'ChatCompletionsModel'],
		['groq', 'ChatCompletionsModel'],
		['together', 'ChatCompletionsModel'],
		['cerebras', 'ChatCompletionsModel'],
		['fireworks', 'ChatCompletionsModel'],
		['nebius', 'ChatCompletionsModel'],
		['moonshot', 'ChatCompletionsModel'],
		['qwen', 'ChatCompletionsModel'],
		['zai', 'ChatCompletionsModel'],
		['poe', 'ChatCompletionsModel'],
		['lmstudio', 'ChatCompletionsModel'],
		['ollama', 'ChatCompletionsModel'],
		['vllm', 'ChatCompletionsModel'],
		['sglang', 'ChatCompletionsModel'],
		['azure_openai', 'ChatCompletionsModel'],
	])('maps type %s to %s, keeping provider and model', (type, className) => {
		const model = createModel({ type, model: 'm-1', options: {} });
		expect(model.constructor.name).toBe(className);
		expect(model.provider).toBe(type);
		expect(model.modelId).toBe('m-1');
		expect(model.capabilities.tools).toBe(true);
	});

	it('maps scripted to the scripted model', () => {
		const model = createModel({
			type: 'scripted',
			model: 'demo',
			options: { script: { coordination: [{ answer: 'hi' }] } },
		});
		expect(model.provider).toBe('scripted');
	});

	it('refuses vscode_lm outside VS Code with a clear error', () => {
		expect(() => createModel({ type: 'vscode_lm', model: 'copilot-gpt-4o', options: {} })).toThrow(
			/only available inside VS Code/,
		);
	});

	it('refuses an unknown type naming it', () => {
		let caught: unknown;
		try {
			createModel({ type: 'palm', model: 'x', options: {} });
		} catch (error) {
			caught = error;
		}
		expect(ProviderError.is(caught)).toBe(true);
		expect((caught as Error).message).toContain('"palm"');
	});

	it('loads no SDK eagerly: provider modules import the SDKs as types only (dynamic import on first call)', () => {
		const offenders = readdirSync(providersDir)
			.filter((name) => name.endsWith('.ts'))
			.flatMap((name) => {
				const text = readFileSync(join(providersDir, name), 'utf8');
				return [
					...text.matchAll(
						/^import\s+(?!type\b)[^;]*from\s+'(openai|@anthropic-ai\/sdk|@google\/genai)[^']*'/gm,
					),
				].map((m) => `${name}: ${m[0]}`);
			});
		expect(offenders).toEqual([]);
	});
});

describe('presets', () => {
	it('carries the documented defaults (as in MassGen)', () => {
		expect(presetFor('grok')).toMatchObject({
			baseUrl: 'https://api.x.ai/v1',
			keyVariables: ['XAI_API_KEY'],
		});
		expect(presetFor('lmstudio')).toMatchObject({ baseUrl: 'http://localhost:1234/v1', keyOptional: true });
		expect(presetFor('ollama')).toMatchObject({ baseUrl: 'http://localhost:11434/v1', keyOptional: true });
		expect(presetFor('vllm')?.baseUrl).toBe('http://localhost:8000/v1');
		expect(presetFor('sglang')?.baseUrl).toBe('http://localhost:30000/v1');
		expect(presetFor('azure_openai')).toMatchObject({
			keyVariables: ['AZURE_OPENAI_API_KEY'],
			baseUrlRequired: true,
		});
		expect(presetFor('gemini')?.keyVariables).toEqual(['GEMINI_API_KEY', 'GOOGLE_API_KEY']);
		expect(presetFor('toString')).toBeUndefined();
		for (const [type, preset] of Object.entries(providerPresets)) {
			if (preset.baseUrl) expect(() => new URL(preset.baseUrl!), type).not.toThrow();
		}
	});

	it('picks the chatcompletion key variable from the base URL host', () => {
		expect(keyVariablesFor('chatcompletion', 'https://api.cerebras.ai/v1')).toEqual(['CEREBRAS_API_KEY']);
		expect(keyVariablesFor('chatcompletion', 'https://openrouter.ai/api/v1')).toEqual(['OPENROUTER_API_KEY']);
		expect(keyVariablesFor('chatcompletion', 'http://localhost:8080/v1')).toEqual([]);
		expect(keyVariablesFor('claude')).toEqual(['ANTHROPIC_API_KEY']);
	});
});
