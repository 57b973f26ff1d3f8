/**
 * `massgen init --base-url http://user:password@…` (dist/cli.js): the password and user name reach
 * neither the terminal nor the config; the config keeps the URL without them and stderr names the
 * key variable to set. Control: a URL without credentials is written as given.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeWorkspaceDir } from '../../fakes/team.js';
import { runCli } from './cliProcess.js';

const password = 'pw-init-s3cret-0042';

describe('massgen init with credentials in --base-url', () => {
	it('writes and prints neither the user name nor the password, and says which variable holds the key', async () => {
		const root = makeWorkspaceDir();
		const init = await runCli(
			['init', '--agent', 'openai:gpt-5-mini', '--base-url', `http://alice:${password}@127.0.0.1:9/v1`],
			{ cwd: root },
		);
		expect(init.code, init.stderr).toBe(0);
		const config = readFileSync(join(root, '.massgen', 'config.yaml'), 'utf8');
		for (const text of [init.stdout, init.stderr, config]) {
			expect(text).not.toContain(password);
			expect(text).not.toContain('alice');
		}
		expect(config).toContain('base_url: http://127.0.0.1:9/v1');
		expect(init.stderr).toMatch(
			/gpt-5-mini: the user name and password in --base-url are not written .* set \S*API_KEY/,
		);
	});

	it('an unparsable --base-url is refused without echoing it', async () => {
		const root = makeWorkspaceDir();
		const init = await runCli(
			['init', '--agent', 'openai:gpt-5-mini', '--base-url', `http://a:${password}@ bad`],
			{
				cwd: root,
			},
		);
		expect(init.code).toBe(1);
		expect(init.stderr).toContain('--base-url is not a URL');
		expect(init.stderr).not.toContain(password);
	});

	it('control: a URL without credentials is written as given, with no notice', async () => {
		const root = makeWorkspaceDir();
		const init = await runCli(
			['init', '--agent', 'openai:gpt-5-mini', '--base-url', 'http://127.0.0.1:9/v1'],
			{
				cwd: root,
			},
		);
		expect(init.code, init.stderr).toBe(0);
		expect(readFileSync(join(root, '.massgen', 'config.yaml'), 'utf8')).toContain(
			'base_url: http://127.0.0.1:9/v1',
		);
		expect(init.stderr).not.toContain('not written');
	});
});
