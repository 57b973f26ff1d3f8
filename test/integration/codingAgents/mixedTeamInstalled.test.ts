import { execFile } from 'node:child_process';
import {
	cpSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	realpathSync,
	rmSync,
	symlinkSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, sep } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codexOnPath } from '../../../src/core/providers/codingAgents/cliBinaries.js';
import { makeWorkspaceDir } from '../../fakes/team.js';
import { startLoopbackProvider, type LoopbackProvider } from '../../servers/loopbackProvider.js';
import { cliPackageFiles } from '../../scripts/packCli.js';
import { proxyOf, voteWhenShown, type ProxiedProvider } from './mixedTeamProxy.js';

const run = promisify(execFile);
const repo = join(__dirname, '..', '..', '..');
const marks = { claude: 'CLAUDE: a greeting', codex: 'CODEX: a greeting' };

/**
 * Issue 14, shipping: the CLI as npm installs it — the files of its package (test/scripts/packCli.ts),
 * with no node_modules above (the SDKs are bundled, their ~400 MB CLI binaries are not dependencies) —
 * runs a claude_code and a codex member with no CLI path set: each CLI is the one on PATH (npm's
 * `codex` wrapper resolved to its native binary), as nothing else could provide one.
 */
describe('the installed CLI finds claude and codex on PATH (a copy of dist/ outside the checkout)', () => {
	let installed: string;
	let bin: string;
	let claude: LoopbackProvider;
	let codex: LoopbackProvider;
	const proxies: ProxiedProvider[] = [];

	beforeAll(async () => {
		installed = mkdtempSync(join(tmpdir(), 'massgen-installed-'));
		for (const file of cliPackageFiles()) cpSync(join(repo, file), join(installed, file));
		// A PATH folder as installers leave it: links to the CLIs (the checkout's own, pinned).
		bin = mkdtempSync(join(tmpdir(), 'massgen-path-'));
		const claudeCli = join(
			repo,
			'node_modules',
			`@anthropic-ai/claude-agent-sdk-${process.platform}-${process.arch}`,
			'claude',
		);
		symlinkSync(claudeCli, join(bin, 'claude'));
		symlinkSync(join(repo, 'node_modules', '.bin', 'codex'), join(bin, 'codex'));
		claude = await startLoopbackProvider('anthropic', { auto: { name: 'claude' } });
		codex = await startLoopbackProvider('responses', { auto: { name: 'codex' } });
	});
	afterAll(async () => {
		await Promise.all(proxies.map((proxy) => proxy.close()));
		await Promise.all([claude?.close(), codex?.close()]);
		for (const dir of [installed, bin]) if (dir) rmSync(dir, { recursive: true, force: true });
	});

	it('a claude_code and a codex member, no cli_path: both run, from PATH', async () => {
		const voteArgs = (id: string) => ({ agent_id: id, reason: 'complete' });
		const claudeProxy = await proxyOf(
			claude,
			voteWhenShown(claude, [marks.codex], (id) =>
				claude.say({ toolCalls: [{ name: 'mcp__massgen__vote', arguments: voteArgs(id) }] }),
			),
		);
		const codexProxy = await proxyOf(
			codex,
			voteWhenShown(codex, [marks.claude], (id) =>
				codex.say({ toolCalls: [{ namespace: 'mcp__massgen', name: 'vote', arguments: voteArgs(id) }] }),
			),
		);
		proxies.push(claudeProxy, codexProxy);
		claude.say({ toolCalls: [{ name: 'mcp__massgen__new_answer', arguments: { content: marks.claude } }] });
		codex.say({
			toolCalls: [{ namespace: 'mcp__massgen', name: 'new_answer', arguments: { content: marks.codex } }],
		});
		const root = makeWorkspaceDir({ 'a.txt': 'old\n' });
		const team = join(makeWorkspaceDir(), 'team.yaml');
		writeFileSync(
			team,
			[
				'agents:',
				'  - id: claude_coder',
				'    backend:',
				'      type: claude_code',
				`      base_url: ${claudeProxy.baseUrl}`,
				'  - id: codex_coder',
				'    backend:',
				'      type: codex',
				'      model: gpt-5.5',
				`      base_url: ${codexProxy.baseUrl}`,
				'',
			].join('\n'),
		);
		// No node_modules/.bin of the checkout on PATH: the CLIs come from `bin` only.
		const path = [
			bin,
			...(process.env.PATH ?? '').split(delimiter).filter((dir) => !dir.includes(`node_modules${sep}.bin`)),
		];
		const { stderr } = await run(
			process.execPath,
			[join(installed, 'dist', 'cli.js'), 'run', '--config', team, 'Add a greeting.'],
			{
				cwd: root,
				env: {
					PATH: path.join(delimiter),
					HOME: process.env.HOME,
					ANTHROPIC_API_KEY: 'loopback-anthropic-key',
					OPENAI_API_KEY: 'loopback-openai-key',
				},
				maxBuffer: 16 * 1024 * 1024,
			},
		);
		const runs = join(root, '.massgen', 'runs');
		const result = JSON.parse(readFileSync(join(runs, readdirSync(runs)[0]!, 'result.json'), 'utf8')) as {
			status: string;
			votes: { voter: string; votedFor: string }[];
		};
		expect(result.status, stderr).toBe('completed');
		expect(stderr).not.toMatch(/killed/);
		expect(result.votes.map((vote) => [vote.voter, vote.votedFor]).sort()).toEqual([
			['claude_coder', 'codex_coder'],
			['codex_coder', 'claude_coder'],
		]);
		expect(claude.requests.length).toBeGreaterThanOrEqual(2);
		expect(codex.requests.length).toBeGreaterThanOrEqual(2);
		// The codex that ran is the wrapper's native binary (npm's Node wrapper itself outlives it).
		const native = codexOnPath(bin)!.path;
		expect(native).toBe(realpathSync(native));
		expect(native.endsWith(`${sep}codex.js`)).toBe(false);
	}, 120_000);

	it('with neither CLI on PATH, each coder is left out with its clear message; the API agent goes on', async () => {
		const api = await startLoopbackProvider('anthropic', { auto: { name: 'api' } });
		try {
			const root = makeWorkspaceDir({ 'a.txt': 'old\n' });
			const team = join(makeWorkspaceDir(), 'team.yaml');
			writeFileSync(
				team,
				[
					'agents:',
					'  - id: api_agent',
					'    backend:',
					'      type: claude',
					'      model: claude-sonnet-4-5',
					`      base_url: ${api.baseUrl}`,
					'  - id: claude_coder',
					'    backend:',
					'      type: claude_code',
					`      base_url: ${claude.baseUrl}`,
					'  - id: codex_coder',
					'    backend:',
					'      type: codex',
					`      base_url: ${codex.baseUrl}`,
					'',
				].join('\n'),
			);
			const before = { claude: claude.requests.length, codex: codex.requests.length };
			const path = (process.env.PATH ?? '').split(delimiter).filter((dir) => !dir.includes('node_modules'));
			const { stderr } = await run(
				process.execPath,
				[join(installed, 'dist', 'cli.js'), 'run', '--config', team, 'Say hi.'],
				{
					cwd: root,
					env: {
						PATH: path.join(delimiter),
						HOME: process.env.HOME,
						ANTHROPIC_API_KEY: 'loopback-anthropic-key',
						OPENAI_API_KEY: 'loopback-openai-key',
					},
					maxBuffer: 16 * 1024 * 1024,
				},
			);
			expect(stderr).toMatch(/claude_coder: killed: Claude Code CLI not found .*`claude` on PATH/);
			expect(stderr).toMatch(/codex_coder: killed: Codex CLI not found .*`codex` on PATH/);
			const runs = join(root, '.massgen', 'runs');
			const result = JSON.parse(readFileSync(join(runs, readdirSync(runs)[0]!, 'result.json'), 'utf8')) as {
				status: string;
				winner: { agentId: string };
			};
			expect(result.status).toBe('completed');
			expect(result.winner.agentId).toBe('api_agent');
			// Neither CLI asked its model anything.
			expect({ claude: claude.requests.length, codex: codex.requests.length }).toEqual(before);
		} finally {
			await api.close();
		}
	}, 120_000);
});
