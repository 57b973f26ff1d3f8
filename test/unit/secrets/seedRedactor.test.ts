import { describe, expect, it } from 'vitest';
import { keySecrets, seedRedactor } from '../../../src/core/secrets/seedRedactor.js';

const envToken = 'ghp_env-token-0123456789';
const storedKey = 'sk-stored-key-0123456789';
const dotenvKey = 'sk-dotenv-key-0123456789';

describe('seedRedactor: the one seed of every shell’s output redactor and every run’s', () => {
	it('a shell before any workspace: its environment’s secret-looking values and URL credentials', () => {
		const shell = seedRedactor({ env: { GH_TOKEN: envToken, DEBUG: 'true', PATH: '/usr/bin' } });
		expect(shell.text(`token ${envToken} debug true`)).toBe('token [redacted] debug true');
		expect(shell.text('https://bob:pw-123456@host/x')).toBe('https://[redacted]@host/x');
	});

	it('a run: the same environment plus the stored keys and the trusted workspace’s .env, which only it knows', () => {
		const env = { GH_TOKEN: envToken };
		const sources = { env, secrets: { OPENAI_API_KEY: storedKey }, dotenv: { ANTHROPIC_API_KEY: dotenvKey } };
		const run = seedRedactor(sources);
		const shell = seedRedactor({ env });
		const text = `${envToken} ${storedKey} ${dotenvKey}`;
		expect(run.text(text)).toBe('[redacted] [redacted] [redacted]');
		// Control: the shell's seed knows the environment only, so it differs from the run's by exactly these.
		expect(shell.text(text)).toBe(`[redacted] ${storedKey} ${dotenvKey}`);
		expect(keySecrets(sources).sort()).toEqual([dotenvKey, envToken, storedKey].sort());
	});
});
