import { describe, expect, it } from 'vitest';
import { specSecrets } from '../../../src/core/mcp/mcpServerSpec.js';
import { environmentSecrets, urlCredentials } from '../../../src/core/secrets/runSecrets.js';
import { buildAgents } from '../../../src/core/team/buildAgents.js';
import { loadConfigText } from '../../../src/core/config/loadConfig.js';

describe('where a run’s secrets come from', () => {
	it('URL credentials: the whole userinfo and the password, raw and percent-decoded', () => {
		expect(urlCredentials('x http://bob:p%40ss-word@host/v1 y')).toEqual([
			'bob:p%40ss-word',
			'bob:p@ss-word',
			'p%40ss-word',
			'p@ss-word',
		]);
		expect(urlCredentials('https://ghp_TOKEN123@github.com/o/r.git')).toEqual([
			'ghp_TOKEN123',
			'ghp_TOKEN123',
		]);
		expect(urlCredentials('https://example.com/a@b and git@github.com:o/r')).toEqual([]);
	});

	it('environment: secret-looking names (not flags, not paths) and credentials in any URL value', () => {
		const found = environmentSecrets({
			GH_PAT: 'ghp_0123456789abcdef',
			OPENAI_API_KEY: ' sk-test-key-with-space ',
			AWS_SESSION_TOKEN: 'FQoGZXIvYXdzEJr-token',
			DATABASE_URL: 'postgres://app:db-pass-1234@h/db',
			CI_JOB_TOKEN_ENABLED: 'true',
			SSH_AUTH_SOCK: '/run/user/1000/ssh-agent.sock',
			PATH: '/usr/bin:/bin',
			EDITOR: 'code-insiders-with-a-long-name',
		});
		expect(found).toEqual(
			expect.arrayContaining([
				'ghp_0123456789abcdef',
				'sk-test-key-with-space',
				'FQoGZXIvYXdzEJr-token',
				'app:db-pass-1234',
				'db-pass-1234',
			]),
		);
		for (const kept of [
			'true',
			'/run/user/1000/ssh-agent.sock',
			'/usr/bin:/bin',
			'code-insiders-with-a-long-name',
		]) {
			expect(found).not.toContain(kept);
		}
	});

	it('MCP servers: what ${VAR} expands to anywhere, credential-named env and header values, URL credentials', () => {
		const context = {
			env: { TOKEN: 'tok-from-env-1234', API: 'api-from-env-5678', HOME: '/home/u' },
			workspaceFolder: '/ws',
			userHome: '/home/u',
		};
		const found = specSecrets(
			{
				command: 'server',
				args: ['--token', '${env:API}', '${workspaceFolder}/data'],
				env: { GITHUB_TOKEN: 'literal-token-9999', MODE: 'production', DEBUG: '${TOKEN}' },
				url: 'https://svc:svc-pass-42@mcp.example/v1',
				headers: { Authorization: 'Bearer literal-bearer-777', Accept: 'application/json' },
			},
			context,
		);
		expect(found).toEqual(
			expect.arrayContaining([
				'api-from-env-5678',
				'tok-from-env-1234',
				'literal-token-9999',
				'Bearer literal-bearer-777',
				'literal-bearer-777',
				'svc:svc-pass-42',
				'svc-pass-42',
			]),
		);
		for (const kept of ['production', 'application/json', '/ws', '/ws/data']) {
			expect(found).not.toContain(kept);
		}
	});

	it('buildAgents collects keys from the config, secret storage, env and .env, URL credentials and MCP expansions', () => {
		const { config } = loadConfigText(
			[
				'agents:',
				'  - id: a',
				'    backend: { type: openai, model: m, base_url: "http://u:url-pass-1234@127.0.0.1:9/v1" }',
				'  - id: b',
				'    backend:',
				'      type: claude',
				'      model: m',
				'      mcp_servers: [{ name: s, command: x, env: { T: "${MCP_TOKEN}" } }]',
				'  - id: c',
				'    backend: { type: gemini, model: m, api_key: config-key-0000 }',
			].join('\n'),
			'team.yaml',
		);
		const { secrets } = buildAgents(config!, {
			keys: {
				env: { OPENAI_API_KEY: 'env-openai-1111', MCP_TOKEN: 'mcp-token-2222' },
				dotenv: { ANTHROPIC_API_KEY: 'dotenv-anthropic-3333' },
				secrets: { XAI_API_KEY: 'stored-xai-4444' },
			},
			createModel: () => ({ provider: 'x', modelId: 'm', capabilities: {} }) as never,
		});
		expect(secrets).toEqual(
			expect.arrayContaining([
				'env-openai-1111',
				'dotenv-anthropic-3333',
				'config-key-0000',
				'stored-xai-4444',
				'u:url-pass-1234',
				'url-pass-1234',
				'mcp-token-2222',
			]),
		);
	});
});
