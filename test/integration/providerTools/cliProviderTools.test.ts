import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { startLoopbackProvider, type LoopbackProvider } from '../../servers/loopbackProvider.js';
import { anthropicServerTools, type ServerToolScript } from '../../servers/wire/providerToolStreams.js';
import { makeWorkspaceDir } from '../../fakes/team.js';
import { runCli } from '../cli/cliProcess.js';
import { startOnPty } from '../cli/ptyProcess.js';

/**
 * The provider-tools decision through the built CLI: a Claude agent with MassGen's enable_web_search
 * and enable_code_execution, through the Anthropic SDK against the loopback Messages server.
 */
const script: ServerToolScript = {
	query: 'node 22 release date',
	sources: [
		{ title: 'Node.js releases', url: 'https://nodejs.org/en/about/previous-releases' },
		{ title: 'Node 22', url: 'https://nodejs.org/en/blog/release/v22.0.0' },
	],
	code: 'date',
	output: 'Tue Apr 23 2024',
	text: 'Node 22 was released on 24 April 2024.',
};
const sourcesBlock =
	'Sources:\n1. [Node.js releases](https://nodejs.org/en/about/previous-releases)\n2. [Node 22](https://nodejs.org/en/blog/release/v22.0.0)';

describe('provider tools decision (dist/cli.js)', () => {
	const servers: LoopbackProvider[] = [];
	afterEach(async () => {
		await Promise.all(servers.splice(0).map((server) => server.close()));
	});

	async function team() {
		const server = await startLoopbackProvider('anthropic', {});
		servers.push(server);
		const root = makeWorkspaceDir({ 'a.ts': 'export const a = 1;\n' });
		const backend = {
			type: 'claude',
			model: 'claude-sonnet-4-5',
			base_url: server.baseUrl,
			api_key: 'loopback-key',
			enable_web_search: true,
			enable_code_execution: true,
		};
		const config = join(root, 'team.yaml');
		writeFileSync(config, stringify({ agents: [{ id: 'researcher', backend }] }));
		return { server, root, config };
	}
	const runDir = (root: string) => {
		const runs = join(root, '.massgen', 'runs');
		const [id] = existsSync(runs) ? readdirSync(runs) : [];
		return join(runs, id!);
	};
	const lines = (file: string) =>
		readFileSync(file, 'utf8')
			.trim()
			.split('\n')
			.map((line) => JSON.parse(line));
	const toolTypes = (server: LoopbackProvider) =>
		((server.requests[0]!.body as { tools?: { type?: string }[] }).tools ?? []).map((t) => t.type);

	it('--provider-tools=allow: the tools are sent, their calls are in the events, the citations in the answer, the decision in the ledger', async () => {
		const { server, root, config } = await team();
		server.enqueue({ events: anthropicServerTools(script) });
		const run = await runCli(
			['run', '--config', config, '--provider-tools=allow', 'When was Node 22 released?'],
			{
				cwd: root,
			},
		);
		expect(run.code).toBe(0);
		expect(toolTypes(server)).toEqual(
			expect.arrayContaining(['web_search_20250305', 'web_fetch_20250910', 'code_execution_20250825']),
		);
		expect(run.stdout).toContain(script.text);
		expect(run.stdout).toContain(sourcesBlock);
		expect(run.stderr).toContain('researcher: web search "node 22 release date" (2 pages)');
		const dir = runDir(root);
		const events = lines(join(dir, 'events.jsonl'));
		expect(events.filter((e) => e.type === 'provider-tool').map((e) => [e.kind, e.callId])).toEqual([
			['search', 'srvtoolu_search'],
			['code', 'srvtoolu_code'],
		]);
		expect(readFileSync(join(dir, 'final-answer.md'), 'utf8')).toContain(sourcesBlock);
		expect(lines(join(dir, 'permissions.jsonl'))).toEqual([
			expect.objectContaining({
				agentId: 'researcher',
				tool: 'provider_tools',
				target: 'web search, code execution',
				decision: 'allow',
				via: 'rule',
				by: 'policy',
				reason: '--provider-tools: allow',
			}),
		]);
	});

	it('ask with no terminal: treated as deny, said once, the tools left out, the run goes on', async () => {
		const { server, root, config } = await team();
		server.say({ text: 'From memory: April 2024.' });
		const run = await runCli(['run', '--config', config, 'When was Node 22 released?'], { cwd: root });
		expect(run.code).toBe(0);
		// Only its function tools (no type) are sent.
		expect(toolTypes(server).filter(Boolean)).toEqual([]);
		expect(server.requests[0]!.headers['anthropic-beta']).toBeUndefined();
		const said = run.stderr.split('\n').filter((line) => line.includes('provider tools left out'));
		expect(said).toHaveLength(1);
		expect(said[0]).toContain('--provider-tools is ask, but there is no terminal to ask on: treated as deny');
		expect(run.stdout).toContain('From memory: April 2024.');
		expect(lines(join(runDir(root), 'permissions.jsonl'))).toEqual([
			expect.objectContaining({ decision: 'deny', by: 'policy', tool: 'provider_tools' }),
		]);
	});

	it('ask on a terminal: asked once before the first request, the answer recorded as the user’s', async () => {
		const { server, root, config } = await team();
		server.enqueue({ events: anthropicServerTools(script) });
		const pty = startOnPty(['run', '--config', config, 'When was Node 22 released?'], { cwd: root });
		await pty.waitFor('Allow them for this run? [y/N] ');
		expect(server.requests).toHaveLength(0);
		pty.type('y\r');
		expect(await pty.exited).toBe(0);
		expect(pty.output()).toContain('researcher (web search, code execution) would use provider-side tools');
		expect(pty.output().split('Allow them for this run?').length).toBe(2);
		expect(toolTypes(server)).toContain('web_search_20250305');
		expect(lines(join(runDir(root), 'permissions.jsonl'))).toEqual([
			expect.objectContaining({
				decision: 'allow',
				via: 'approval',
				by: 'user',
				reason: 'allowed for this run',
			}),
		]);
	});

	it('rejects a --provider-tools value it does not know', async () => {
		const { root, config } = await team();
		const run = await runCli(['run', '--config', config, '--provider-tools=maybe', 'q'], { cwd: root });
		expect(run.code).not.toBe(0);
		expect(run.stderr).toContain("--provider-tools must be allow, ask or deny, not 'maybe'");
	});
});
