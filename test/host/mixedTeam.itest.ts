// In-host (docs/coding-agents.md): a mixed team — an API agent, a claude_code and a codex member (the real
// CLIs against loopback servers) — run through the extension's run controller: every agent is in the
// run's state, each coder's edits are its answer's changes, the winner's are under review with
// the other coder's consensus mark, nothing is on disk before Accept, and Accept writes them. And
// with no CLI path anywhere, the claude_code member's CLI is the one on the extension host's PATH.
import * as assert from 'node:assert/strict';
import {
	chmodSync,
	existsSync,
	mkdtempSync,
	readFileSync,
	rmSync,
	symlinkSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { after, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import type { MassGenApi } from '../../src/vscode/extensionApi';
import { customToolCall } from '../integration/codingAgents/codexWire';
import { proxyOf, voteWhenShown, type ProxiedProvider } from '../integration/codingAgents/mixedTeamProxy';
import { startLoopbackProvider, type LoopbackProvider } from '../servers/loopbackProvider';
import { until, useConfig, workspaceRoot } from './hostWaits';

const codexModel = 'gpt-5.5';
const marks = {
	api: 'API',
	claude: 'CLAUDE: added mixed-shared.txt and mixed-claude.txt',
	codex: 'CODEX: added mixed-shared.txt and mixed-codex.txt',
};
const written = ['mixed-shared.txt', 'mixed-claude.txt', 'mixed-codex.txt'];

describe('A mixed team in the editor: API agent, claude_code and codex (in VS Code, real CLIs)', function () {
	this.timeout(120_000);
	let api: MassGenApi;
	const servers: LoopbackProvider[] = [];
	const proxies: ProxiedProvider[] = [];
	let configDir: string;

	before(async () => {
		const extension = vscode.extensions.getExtension<MassGenApi>('massgen.massgen-vscode');
		assert.ok(extension);
		api = await extension.activate();
		// The checkout, or an unpacked .vsix (MASSGEN_E2E_EXTENSION_PATH): the log says which ran.
		console.log(`mixed team: the extension at ${extension.extensionPath}`);
		configDir = mkdtempSync(join(tmpdir(), 'massgen-mixed-'));
	});

	after(async () => {
		for (const runId of api.changes.pendingRunIds()) await api.changes.reject(runId);
		await useConfig(undefined);
		await Promise.all(proxies.map((proxy) => proxy.close()));
		await Promise.all(servers.map((server) => server.close()));
		for (const file of written) rmSync(join(workspaceRoot(), file), { force: true });
		rmSync(configDir, { recursive: true, force: true });
	});

	const serve = async (...args: Parameters<typeof startLoopbackProvider>) => {
		const server = await startLoopbackProvider(...args);
		servers.push(server);
		return server;
	};
	const proxy = async (server: LoopbackProvider, before: (text: string) => void) => {
		const proxied = await proxyOf(server, before);
		proxies.push(proxied);
		return proxied.baseUrl;
	};
	const agent = (id: string, type: string, lines: string[]) => [
		`  - id: ${id}`,
		'    backend:',
		`      type: ${type}`,
		...lines.map((line) => `      ${line}`),
	];
	const voteArgs = (id: string) => ({ agent_id: id, reason: 'its change is complete' });

	it("converges: every agent in the run, the coders' edits under review, nothing written before Accept", async () => {
		const apiServer = await serve('anthropic', { auto: { name: 'api', answer: `${marks.api}: done` } });
		const claude = await serve('anthropic', { auto: { name: 'claude' } });
		const codex = await serve('responses', { auto: { name: 'codex' } });
		const apiUrl = await proxy(
			apiServer,
			voteWhenShown(apiServer, [marks.codex, marks.claude], (id) =>
				apiServer.say({ toolCalls: [{ name: 'vote', arguments: voteArgs(id) }] }),
			),
		);
		const claudeUrl = await proxy(
			claude,
			voteWhenShown(claude, [marks.codex, marks.api], (id) =>
				claude.say({ toolCalls: [{ name: 'mcp__massgen__vote', arguments: voteArgs(id) }] }),
			),
		);
		const codexUrl = await proxy(
			codex,
			voteWhenShown(codex, [marks.claude, marks.api], (id) =>
				codex.say({ toolCalls: [{ namespace: 'mcp__massgen', name: 'vote', arguments: voteArgs(id) }] }),
			),
		);
		for (const [id, file, content] of [
			['toolu_w1', 'mixed-shared.txt', 'hello\n'],
			['toolu_w2', 'mixed-claude.txt', 'from claude\n'],
		] as const) {
			claude.say({ toolCalls: [{ id, name: 'Write', arguments: { file_path: file, content } }] });
		}
		claude.say({ toolCalls: [{ name: 'mcp__massgen__new_answer', arguments: { content: marks.claude } }] });
		const patch = [
			'*** Begin Patch',
			'*** Add File: mixed-shared.txt',
			'+hello',
			'*** Add File: mixed-codex.txt',
			'+from codex',
			'*** End Patch',
			'',
		].join('\n');
		codex.enqueue({ events: customToolCall('call_patch', 'apply_patch', patch, codexModel) });
		codex.say({
			toolCalls: [{ namespace: 'mcp__massgen', name: 'new_answer', arguments: { content: marks.codex } }],
		});
		const team = join(configDir, 'mixed.yaml');
		writeFileSync(
			team,
			[
				'agents:',
				...agent('api_agent', 'claude', [
					'model: claude-sonnet-4-5',
					'api_key: loopback-anthropic-key',
					`base_url: ${apiUrl}`,
				]),
				...agent('claude_coder', 'claude_code', [
					'model: claude-sonnet-4-5',
					'api_key: loopback-anthropic-key',
					`base_url: ${claudeUrl}`,
				]),
				...agent('codex_coder', 'codex', [
					`model: ${codexModel}`,
					'api_key: loopback-openai-key',
					`base_url: ${codexUrl}`,
				]),
				'',
			].join('\n'),
		);
		await useConfig(team);

		// Codex will not install its sandbox helper under the temp folder (its patches then fail), and
		// code-server's HOME, where the agent's CODEX_HOME goes by default, is a temp folder here.
		// No CLI path is set: both CLIs are found on PATH, linked as installers do (the checkout's
		// own); from a development path the SDK's own Codex binary comes first, from the unpacked
		// .vsix (no node_modules) only PATH has one.
		const bin = mkdtempSync(join(tmpdir(), 'massgen-path-'));
		symlinkSync(
			require.resolve(`@anthropic-ai/claude-agent-sdk-${process.platform}-${process.arch}/claude`),
			join(bin, 'claude'),
		);
		symlinkSync(
			join(dirname(require.resolve('@openai/codex/package.json')), 'bin', 'codex.js'),
			join(bin, 'codex'),
		);
		const saved = { XDG_CACHE_HOME: process.env.XDG_CACHE_HOME, PATH: process.env.PATH };
		process.env.XDG_CACHE_HOME = join(userInfo().homedir, '.cache');
		process.env.PATH = `${bin}${delimiter}${saved.PATH ?? ''}`;
		const run = await api.runs.start({ question: 'Add a greeting.', kind: 'ask' }).finally(() => {
			restoreEnv(saved);
			rmSync(bin, { recursive: true, force: true });
		});
		assert.ok(run, 'the run started');
		assert.equal(run.result.status, 'completed', run.result.error);
		assert.deepEqual(Object.keys(api.lastState()?.agents ?? {}).sort(), [
			'api_agent',
			'claude_coder',
			'codex_coder',
		]);
		const changesOf = (agentId: string) =>
			run.result.answerChanges
				?.find((set) => set.agentId === agentId)
				?.changes.map((change) => [change.path, change.kind, change.content])
				.sort();
		assert.deepEqual(changesOf('claude_coder'), [
			['mixed-claude.txt', 'add', 'from claude\n'],
			['mixed-shared.txt', 'add', 'hello\n'],
		]);
		assert.deepEqual(changesOf('codex_coder'), [
			['mixed-codex.txt', 'add', 'from codex\n'],
			['mixed-shared.txt', 'add', 'hello\n'],
		]);
		assert.deepEqual(run.result.votes.map((vote) => [vote.voter, vote.votedFor]).sort(), [
			['api_agent', 'codex_coder'],
			['claude_coder', 'codex_coder'],
			['codex_coder', 'claude_coder'],
		]);
		assert.equal(run.result.winner?.agentId, 'codex_coder');
		for (const file of written) {
			assert.equal(existsSync(join(workspaceRoot(), file)), false, `${file} before Accept`);
		}

		// Under review: the winner's two files; the shared file's hunk was made by both coders.
		const view = await until('the change set', () => api.changes.changeSet(run.result.runId) ?? undefined);
		assert.deepEqual(view.files.map((file) => [file.path, file.hunks.map((hunk) => hunk.agents)]).sort(), [
			['mixed-codex.txt', [['codex_coder']]],
			['mixed-shared.txt', [['codex_coder', 'claude_coder']]],
		]);
		await api.changes.accept({ runId: run.result.runId });
		assert.equal(readFileSync(join(workspaceRoot(), 'mixed-codex.txt'), 'utf8'), 'from codex\n');
		assert.equal(readFileSync(join(workspaceRoot(), 'mixed-shared.txt'), 'utf8'), 'hello\n');
		assert.equal(existsSync(join(workspaceRoot(), 'mixed-claude.txt')), false, 'only the winner is written');
	});

	it("with no CLI path set, claude_code runs the `claude` on the extension host's PATH", async () => {
		const claude = await serve('anthropic', { auto: { name: 'claude' } });
		const claudeUrl = await proxy(
			claude,
			voteWhenShown(claude, ['Write a CONTRIBUTING guide.'], (id) =>
				claude.say({ toolCalls: [{ name: 'mcp__massgen__vote', arguments: voteArgs(id) }] }),
			),
		);
		claude.say({
			toolCalls: [
				{ name: 'mcp__massgen__new_answer', arguments: { content: 'A CONTRIBUTING guide, and a README.' } },
			],
		});
		// The `claude` on PATH: a wrapper that marks its requests, then runs the real CLI. Unsandboxed
		// (no bwrap), since bubblewrap would mask the checkout when it lies under /tmp (CI's clone).
		const bin = mkdtempSync(join(tmpdir(), 'massgen-path-'));
		const real = require.resolve(`@anthropic-ai/claude-agent-sdk-${process.platform}-${process.arch}/claude`);
		writeFileSync(
			join(bin, 'claude'),
			`#!/bin/sh\nexport ANTHROPIC_CUSTOM_HEADERS='x-massgen-probe: from-path'\nexec '${real}' "$@"\n`,
		);
		chmodSync(join(bin, 'claude'), 0o755);
		const team = join(configDir, 'path.yaml');
		writeFileSync(
			team,
			[
				'agents:',
				'  - id: planner',
				'    backend:',
				'      type: scripted',
				'      script:',
				'        coordination:',
				'          - answer: Write a CONTRIBUTING guide.',
				'          - vote: first',
				'            reason: it covers setup',
				...agent('coder', 'claude_code', ['api_key: loopback-anthropic-key', `base_url: ${claudeUrl}`]),
				'',
			].join('\n'),
		);
		await useConfig(team);
		const saved = { PATH: process.env.PATH, MASSGEN_BWRAP_PATH: process.env.MASSGEN_BWRAP_PATH };
		process.env.PATH = `${bin}${delimiter}${saved.PATH ?? ''}`;
		process.env.MASSGEN_BWRAP_PATH = join(bin, 'no-bwrap');
		try {
			const run = await api.runs.start({ question: 'How should we document this?', kind: 'ask' });
			assert.ok(run, 'the run started');
			assert.equal(run.result.status, 'completed', run.result.error);
			assert.ok(claude.requests.length >= 2, `the CLI made ${claude.requests.length} request(s)`);
			for (const request of claude.requests) assert.equal(request.headers['x-massgen-probe'], 'from-path');
		} finally {
			restoreEnv(saved);
			rmSync(bin, { recursive: true, force: true });
		}
	});
});

/** Puts the extension host's variables back as they were. */
function restoreEnv(saved: Readonly<Record<string, string | undefined>>): void {
	for (const [name, value] of Object.entries(saved)) {
		if (value === undefined) delete process.env[name];
		else process.env[name] = value;
	}
}
