import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { startLoopbackProvider, type LoopbackProvider } from '../../servers/loopbackProvider.js';
import { makeWorkspaceDir } from '../../fakes/team.js';
import { runCli } from './cliProcess.js';
import { startOnPty } from './ptyProcess.js';

/**
 * The run budget and the cost estimate through the built CLI, each agent through its official SDK
 * against a loopback server, priced by the shipped `configs/prices.yaml`.
 */
describe('run budget and estimate (dist/cli.js)', () => {
	const servers: LoopbackProvider[] = [];
	afterEach(async () => {
		await Promise.all(servers.splice(0).map((server) => server.close()));
	});

	/** Two agents of `type`/`model` on one loopback server; `extra` goes to the config's top level. */
	async function team(
		protocol: 'responses' | 'anthropic',
		type: string,
		model: string,
		extra: Record<string, unknown> = {},
	) {
		// gpt-5-mini: 100k input × $0.25/M + 10k output × $2/M = $0.045 a call.
		const server = await startLoopbackProvider(protocol, {
			auto: { name: type, usage: { input: 100_000, output: 10_000 } },
		});
		servers.push(server);
		const root = makeWorkspaceDir({ 'a.ts': 'export const a = 1;\n' });
		const agents = ['first', 'second'].map((id) => ({
			id,
			backend: { type, model, base_url: server.baseUrl, api_key: 'loopback-key' },
		}));
		const config = join(root, 'team.yaml');
		writeFileSync(config, stringify({ agents, ...extra }));
		return { server, root, config };
	}

	const runDirs = (root: string) => {
		const runs = join(root, '.massgen', 'runs');
		return existsSync(runs) ? readdirSync(runs).map((id) => join(runs, id)) : [];
	};

	it('--max-cost below the config cap stops the run mid-coordination: the stored answers stand', async () => {
		const { server, root, config } = await team('responses', 'openai', 'gpt-5-mini', {
			permissions: { max_cost_usd: 0.5 },
		});
		const run = await runCli(['run', '--config', config, '--max-cost', '0.05', 'What does a.ts export?'], {
			cwd: root,
		});
		expect(run.code).toBe(0);
		// The two first answers ($0.09) reach the cap: no vote and no presentation call is made.
		expect(server.requests.length).toBe(2);
		const reason = 'cost budget reached: $0.0900 of $0.0500 (--max-cost)';
		expect(run.stderr).toContain('budget: $0.0500 (--max-cost)');
		expect(run.stderr).toContain(`budget: ${reason}`);
		const [dir] = runDirs(root);
		const result = JSON.parse(readFileSync(join(dir!, 'result.json'), 'utf8'));
		expect(result.status).toBe('completed');
		expect(result.budget).toEqual({
			maxCostUsd: { limit: 0.05, source: '--max-cost' },
			maxTokens: null,
			spentUsd: server.requests.length * 0.045,
			spentTokens: server.requests.length * 110_000,
			reason,
		});
		expect(result.answers).toHaveLength(2);
		expect(result.votes).toEqual([]);
		const stored = result.answers.find((a: { agentId: string }) => a.agentId === result.winner.agentId);
		expect(result.finalAnswer).toBe(stored.content);
		expect(run.stdout.trim()).toBe(stored.content.trim());
		const events = readFileSync(join(dir!, 'events.jsonl'), 'utf8')
			.trim()
			.split('\n')
			.map((line) => JSON.parse(line));
		expect(events.filter((e) => e.type === 'presentation-start')).toEqual([]);
		expect(events.find((e) => e.type === 'budget-reached')).toMatchObject({
			kind: 'cost',
			limit: 0.05,
			reason,
		});
	});

	it('--max-tokens stops it the same way', async () => {
		const { server, root, config } = await team('responses', 'openai', 'gpt-5-mini');
		const run = await runCli(
			['run', '--config', config, '--max-tokens', '150000', 'What does a.ts export?'],
			{
				cwd: root,
			},
		);
		expect(run.code).toBe(0);
		expect(server.requests.length).toBe(2);
		expect(run.stderr).toContain('budget: token budget reached: 220,000 of 150,000 tokens (--max-tokens)');
	});

	it('an estimate over $0.50 with --max-cost below it is not started without a terminal', async () => {
		// Two claude-opus-4-1 agents: 3 calls each with up to 2,000 output tokens at $75/M ≈ $0.90.
		const { server, root, config } = await team('anthropic', 'claude', 'claude-opus-4-1');
		const run = await runCli(['run', '--config', config, '--max-cost', '0.1', 'What does a.ts export?'], {
			cwd: root,
		});
		expect(run.code).toBe(1);
		expect(run.stderr).toMatch(
			/massgen: estimated cost \$0\.9\d{3}, above the budget of \$0\.1000 \(--max-cost\): \d+ input tokens .* 2 priced agents × 3 calls each/,
		);
		expect(run.stderr).toContain('massgen: not started');
		expect(server.requests.length).toBe(0);
		expect(runDirs(root)).toEqual([]);
	});

	it('without a terminal and a cap the run starts, saying so', async () => {
		const { server, root, config } = await team('anthropic', 'claude', 'claude-opus-4-1');
		const run = await runCli(['run', '--config', config, 'What does a.ts export?'], { cwd: root });
		expect(run.stderr).toMatch(/massgen: estimated cost \$0\.9\d{3}: /);
		expect(run.stderr).toContain('massgen: starting (no terminal to ask on; --max-cost sets a budget)');
		expect(run.code).toBe(0);
		expect(server.requests.length).toBeGreaterThanOrEqual(4);
	});

	it('on a terminal it asks once; no starts nothing', async () => {
		const { server, root, config } = await team('anthropic', 'claude', 'claude-opus-4-1');
		const pty = startOnPty(['run', '--config', config, 'What does a.ts export?'], { cwd: root });
		await pty.waitFor('Start the run? [y/N] ');
		pty.type('n\r');
		expect(await pty.exited).toBe(1);
		expect(pty.output()).toContain('massgen: not started');
		expect(server.requests.length).toBe(0);
		expect(runDirs(root)).toEqual([]);
	});
});
