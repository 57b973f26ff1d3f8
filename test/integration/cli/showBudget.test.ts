import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { startLoopbackProvider, type LoopbackProvider } from '../../servers/loopbackProvider.js';
import { makeWorkspaceDir } from '../../fakes/team.js';
import { runCli } from './cliProcess.js';

/**
 * `massgen show RUN` names the run's budget as the panel header does (spent / cap, where the cap
 * was set) and why it stopped the run; runs through dist/cli.js against a loopback server.
 */
describe('massgen show: the run budget (dist/cli.js)', () => {
	let server: LoopbackProvider | undefined;
	afterEach(async () => {
		await server?.close();
		server = undefined;
	});

	async function runOnce(flags: string[]) {
		// gpt-5-mini: 100k input × $0.25/M + 10k output × $2/M = $0.045 a call.
		server = await startLoopbackProvider('responses', {
			auto: { name: 'show', usage: { input: 100_000, output: 10_000 } },
		});
		const root = makeWorkspaceDir({ 'a.ts': 'export const a = 1;\n' });
		const agents = ['first', 'second'].map((id) => ({
			id,
			backend: { type: 'openai', model: 'gpt-5-mini', base_url: server!.baseUrl, api_key: 'loopback-key' },
		}));
		writeFileSync(join(root, 'team.yaml'), stringify({ agents }));
		const run = await runCli(['run', '--config', 'team.yaml', ...flags, 'What does a.ts export?'], {
			cwd: root,
		});
		expect(run.code, run.stderr).toBe(0);
		const [runId] = readdirSync(join(root, '.massgen', 'runs'));
		const show = await runCli(['show', runId!], { cwd: root });
		expect(show.code, show.stderr).toBe(0);
		return show.stdout;
	}

	it('both caps with their sources, spent against each, and the reason the token cap ended the run', async () => {
		const text = await runOnce(['--max-cost', '0.5', '--max-tokens', '150000']);
		// The two first answers: 2 × 110k tokens and 2 × $0.045, past the token cap.
		expect(text).toContain(
			'\nbudget    $0.0900 / $0.5000 (--max-cost) · 220,000 / 150,000 tokens (--max-tokens)\n' +
				'stopped   token budget reached: 220,000 of 150,000 tokens (--max-tokens)\n',
		);
	});

	it('a cap the run stayed under: spent / cap and no reason; no cap: no budget line', async () => {
		const capped = await runOnce(['--max-cost', '5']);
		expect(capped).toMatch(/\nbudget {4}\$0\.\d{4} \/ \$5\.00 \(--max-cost\)\nchanges /);
		expect(capped).not.toContain('\nstopped ');
		await server?.close();
		const plain = await runOnce([]);
		expect(plain).toMatch(/\ncost {6}\$0\.\d{4}\nchanges /);
		expect(plain).not.toContain('\nbudget ');
	});
});
