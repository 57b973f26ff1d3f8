import { describe, expect, it } from 'vitest';
import { loadConfigText } from '../../../src/core/config/loadConfig.js';
import { redactConfig } from '../../../src/core/config/redact.js';

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
	const out = redactConfig(config!, [secret, '']);

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
		const odd = loadConfigText(`agent:\n  backend:\n    model: gpt-5\n    headers: {"${secret}": 1}\n`, 'x.yaml');
		expect(redactConfig(odd.config!, [secret])).not.toContain(secret);
	});
});
