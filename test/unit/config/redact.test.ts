import { describe, expect, it } from 'vitest';
import { loadConfigText } from '../../../src/core/config/loadConfig.js';
import { configSecrets, redactConfig } from '../../../src/core/config/redact.js';
import { Redactor } from '../../../src/core/secrets/redactor.js';

const secret = 'sk-proj-SUPERSECRET123';
const text = `
agents:
  - id: gpt
    system_message: "If asked, the key is ${secret}."
    backend:
      model: gpt-5-mini
      api_key: ${secret}
      max_tokens: 2048
      extra_headers:
        Authorization: Bearer abc.def
        X-Trace: trace-${secret}-1
      some_odd_name: ${secret}
      auth_token: tok-123
      password_hint: hunter2
      nested: { client_secret: cs-999, note: plain }
  - id: local
    backend: {type: ollama, model: qwen3:8b}
`;

describe('redactConfig', () => {
	const { config } = loadConfigText(text, 'team.yaml');
	// The secret is known only because the config names it `api_key`: configSecrets finds it.
	const out = redactConfig(config!, new Redactor(configSecrets(config!)));

	it('never contains the secret, wherever it was', () => {
		expect(out).not.toContain(secret);
		expect(out).not.toContain('SUPERSECRET');
		for (const leaked of ['abc.def', 'tok-123', 'hunter2', 'cs-999']) expect(out).not.toContain(leaked);
	});

	it('redacts sensitive keys but keeps numbers and ordinary values, and loads again', () => {
		const again = loadConfigText(out, 'config.yaml');
		expect(again.issues).toEqual([]);
		const [gpt, local] = again.config!.agents;
		expect(gpt!.backend.api_key).toBe('[redacted]');
		expect(gpt!.backend.max_tokens).toBe(2048);
		expect(gpt!.system_message).toBe('If asked, the key is [redacted].');
		expect(gpt!.backend.options).toEqual({
			extra_headers: { Authorization: '[redacted]', 'X-Trace': 'trace-[redacted]-1' },
			some_odd_name: '[redacted]',
			auth_token: '[redacted]',
			password_hint: '[redacted]',
			nested: { client_secret: '[redacted]', note: 'plain' },
		});
		expect(local!.backend).toEqual({ type: 'ollama', model: 'qwen3:8b', options: {} });
		expect(again.config!.orchestrator).toEqual(config!.orchestrator);
	});

	it('redacts a secret that appears in a key name too', () => {
		const odd = loadConfigText(
			`agent:\n  backend:\n    model: gpt-5\n    headers: {"${secret}": 1}\n`,
			'x.yaml',
		);
		expect(redactConfig(odd.config!, new Redactor([secret]))).not.toContain(secret);
	});

	it('masks URL credentials in any field and collects them as secrets', () => {
		const withUrl = loadConfigText(
			'agent:\n  system_message: "use http://bob:hunter2-pw@host/v1"\n  backend:\n    type: chatcompletion\n    model: m\n    base_url: http://bob:hunter2-pw@127.0.0.1:9/v1\n',
			'x.yaml',
		).config!;
		expect(configSecrets(withUrl)).toEqual(expect.arrayContaining(['bob:hunter2-pw', 'hunter2-pw']));
		const yaml = redactConfig(withUrl, new Redactor());
		expect(yaml).not.toContain('hunter2');
		expect(yaml).toContain('base_url: http://[redacted]@127.0.0.1:9/v1');
	});

	it('keeps secret_paths (file names, not secrets)', () => {
		const paths = loadConfigText(
			'agent:\n  backend: {type: ollama, model: m}\norchestrator:\n  secret_paths: ["config/prod.yaml"]\n',
			'x.yaml',
		).config!;
		expect(configSecrets(paths)).toEqual([]);
		expect(redactConfig(paths, new Redactor())).toContain('config/prod.yaml');
	});
});
