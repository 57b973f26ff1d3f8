import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
	apiKeyVariables,
	checkApiKeys,
	readDotenv,
	resolveApiKey,
	resolveBaseUrl,
} from '../../../src/core/config/apiKeys.js';
import type { BackendType } from '../../../src/core/config/backendSchema.js';
import { loadConfigText } from '../../../src/core/config/loadConfig.js';
import { toBackendSettings } from '../../../src/core/config/toSettings.js';

describe('apiKeyVariables', () => {
	it("uses MassGen's variable names per backend type", () => {
		const table: [BackendType, string[], boolean][] = [
			['openai', ['OPENAI_API_KEY'], true],
			['claude', ['ANTHROPIC_API_KEY'], true],
			['gemini', ['GEMINI_API_KEY', 'GOOGLE_API_KEY'], true],
			['grok', ['XAI_API_KEY'], true],
			['openrouter', ['OPENROUTER_API_KEY'], true],
			['groq', ['GROQ_API_KEY'], true],
			['together', ['TOGETHER_API_KEY'], true],
			['cerebras', ['CEREBRAS_API_KEY'], true],
			['fireworks', ['FIREWORKS_API_KEY'], true],
			['nebius', ['NEBIUS_API_KEY'], true],
			['moonshot', ['MOONSHOT_API_KEY', 'KIMI_API_KEY'], true],
			['qwen', ['QWEN_API_KEY'], true],
			['zai', ['ZAI_API_KEY'], true],
			['poe', ['POE_API_KEY'], true],
			['azure_openai', ['AZURE_OPENAI_API_KEY'], true],
			['vllm', ['VLLM_API_KEY'], false],
			['sglang', ['SGLANG_API_KEY'], false],
			['lmstudio', [], false],
			['ollama', [], false],
			['vscode_lm', [], false],
			['scripted', [], false],
		];
		for (const [type, variables, required] of table) {
			expect([type, apiKeyVariables({ type })]).toEqual([type, { variables, required }]);
		}
	});

	it('picks the chatcompletion variable from the base_url host, and none for unknown hosts', () => {
		const cc = (base_url: string) => apiKeyVariables({ type: 'chatcompletion', base_url });
		expect(cc('https://api.groq.com/openai/v1')).toEqual({ variables: ['GROQ_API_KEY'], required: true });
		expect(cc('https://api.together.xyz/v1').variables).toEqual(['TOGETHER_API_KEY']);
		expect(cc('https://api.cerebras.ai/v1').variables).toEqual(['CEREBRAS_API_KEY']);
		expect(cc('https://openrouter.ai/api/v1').variables).toEqual(['OPENROUTER_API_KEY']);
		expect(cc('https://api.moonshot.cn/v1').variables).toEqual(['MOONSHOT_API_KEY', 'KIMI_API_KEY']);
		expect(cc('https://api.z.ai/api/paas/v4').variables).toEqual(['ZAI_API_KEY']);
		expect(cc('https://dashscope.aliyuncs.com/compatible-mode/v1').variables).toEqual(['QWEN_API_KEY']);
		// A local server must never receive a vendor's key.
		expect(cc('http://localhost:8080/v1')).toEqual({ variables: [], required: false });
		expect(cc('https://notgroq.com.evil.test/v1')).toEqual({ variables: [], required: false });
	});
});

describe('resolveApiKey', () => {
	const gemini = { type: 'gemini' as const };

	it('looks in config, then secrets, then the environment, then .env', () => {
		const all = {
			secrets: { GEMINI_API_KEY: 'from-secrets' },
			env: { GEMINI_API_KEY: 'from-env' },
			dotenv: { GEMINI_API_KEY: 'from-dotenv' },
		};
		expect(resolveApiKey({ ...gemini, api_key: 'from-config' }, all)).toMatchObject({
			key: 'from-config',
			source: 'config',
		});
		expect(resolveApiKey(gemini, all)).toMatchObject({ key: 'from-secrets', source: 'secrets' });
		expect(resolveApiKey(gemini, { ...all, secrets: {} })).toMatchObject({ key: 'from-env', source: 'env' });
		expect(resolveApiKey(gemini, { env: {}, dotenv: all.dotenv })).toMatchObject({
			key: 'from-dotenv',
			source: 'dotenv',
		});
		expect(resolveApiKey(gemini, { env: {} })).toEqual({
			source: 'none',
			variables: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
			required: true,
		});
	});

	it('ranks sources above variable names, and ignores empty values', () => {
		const sources = {
			env: { GOOGLE_API_KEY: 'google-env', GEMINI_API_KEY: '  ' },
			dotenv: { GEMINI_API_KEY: 'x' },
		};
		expect(resolveApiKey(gemini, sources)).toMatchObject({ key: 'google-env', source: 'env' });
		expect(resolveApiKey(gemini, { env: { GEMINI_API_KEY: 'a', GOOGLE_API_KEY: 'b' } }).key).toBe('a');
	});
});

describe('readDotenv', () => {
	const root = mkdtempSync(join(tmpdir(), 'massgen-dotenv-'));
	afterAll(() => rmSync(root, { recursive: true, force: true }));

	it('parses <workspace>/.env and treats a missing file as empty', async () => {
		expect(await readDotenv(root)).toEqual({});
		writeFileSync(join(root, '.env'), '# keys\nOPENAI_API_KEY=sk-dotenv\nexport GROQ_API_KEY="gsk x"\n');
		expect(await readDotenv(root)).toEqual({ OPENAI_API_KEY: 'sk-dotenv', GROQ_API_KEY: 'gsk x' });
	});
});

describe('checkApiKeys', () => {
	const text = [
		'agents:',
		'  - id: gpt',
		'    backend: {model: gpt-5-mini}',
		'  - id: local',
		'    backend: {type: ollama, model: qwen3:8b}',
		'  - id: gemini',
		'    backend:',
		'      model: gemini-2.5-flash',
		'',
	].join('\n');
	const result = loadConfigText(text, 'team.yaml');

	it('is a warning for validate and an error for run, at the backend, naming the variable', () => {
		const warnings = checkApiKeys(result, { env: {} }, 'validate');
		expect(warnings.map((i) => [i.severity, `${i.file}:${i.line}:${i.col}`, i.message])).toEqual([
			['warning', 'team.yaml:3:5', "agent 'gpt': no API key: set OPENAI_API_KEY (or api_key in the config)"],
			[
				'warning',
				'team.yaml:7:5',
				"agent 'gemini': no API key: set GEMINI_API_KEY or GOOGLE_API_KEY (or api_key in the config)",
			],
		]);
		expect(checkApiKeys(result, { env: {} }, 'run').map((i) => [i.severity, i.code])).toEqual([
			['error', 'missing-api-key'],
			['error', 'missing-api-key'],
		]);
	});

	it('is satisfied by any source', () => {
		const sources = { env: { OPENAI_API_KEY: 'sk' }, secrets: { GOOGLE_API_KEY: 'g' } };
		expect(checkApiKeys(result, sources, 'run')).toEqual([]);
	});

	it('positions a single `agent:` and returns nothing for a failed load', () => {
		const single = loadConfigText('agent:\n  id: solo\n  backend:\n    model: claude-sonnet-4-5\n', 's.yaml');
		expect(checkApiKeys(single, { env: {} }, 'run').map((i) => [i.line, i.col, i.path])).toEqual([
			[3, 3, ['agents', 0, 'backend']],
		]);
		expect(checkApiKeys(loadConfigText('', 'e.yaml'), { env: {} }, 'run')).toEqual([]);
	});
});

describe('azure_openai endpoint', () => {
	// MassGen's azure example: no base_url, the endpoint comes from AZURE_OPENAI_ENDPOINT.
	const text = 'agent:\n  id: az\n  backend:\n    type: azure_openai\n    model: gpt-4.1\n';
	const result = loadConfigText(text, 'az.yaml');
	const key = { AZURE_OPENAI_API_KEY: 'k' };

	it('loads without base_url; the endpoint is checked with the keys, naming the variable', () => {
		expect(result.issues).toEqual([]);
		expect(
			checkApiKeys(result, { env: key }, 'run').map((i) => [i.severity, i.code, i.line, i.message]),
		).toEqual([
			[
				'error',
				'missing-base-url',
				3,
				"agent 'az': no endpoint: set AZURE_OPENAI_ENDPOINT (or base_url in the config)",
			],
		]);
		expect(checkApiKeys(result, { env: key }, 'validate').map((i) => i.severity)).toEqual(['warning']);
	});

	it('takes the endpoint from the environment or .env, and the config over both', () => {
		const agent = result.config!.agents[0]!;
		const env = { ...key, AZURE_OPENAI_ENDPOINT: 'https://r.openai.azure.com/' };
		expect(checkApiKeys(result, { env }, 'run')).toEqual([]);
		expect(resolveBaseUrl(agent.backend, { env: {}, dotenv: env })).toBe('https://r.openai.azure.com/');
		expect(toBackendSettings(agent, 'k', resolveBaseUrl(agent.backend, { env })).baseUrl).toBe(
			'https://r.openai.azure.com/',
		);
		const own = { ...agent.backend, base_url: 'https://own.openai.azure.com' };
		expect(resolveBaseUrl(own, { env })).toBe('https://own.openai.azure.com');
		// Other types never read the variable.
		expect(resolveBaseUrl({ type: 'openai' }, { env })).toBeUndefined();
	});
});
