// In-host: "MassGen team" for agent mode, the extension's MCP server definition provider, in the real
// extension host. Its definition runs the bundled dist/cli.js mcp with the host's own Node on the
// first folder and the user's massgen.config; the stored keys are added only when VS Code starts it,
// and only in a trusted workspace (trust injected: code-server here runs with trust disabled). The
// definition is then started as VS Code would (its command, args, env and cwd) by the official MCP
// SDK client, and its ask_team answers on the loopback team.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { after, afterEach, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import { newRunId } from '../../src/contract/runId';
import { runDirOf } from '../../src/contract/runLayout';
import { spentOnDay } from '../../src/core/runStore/daySpend';
import { recordOwnRun } from '../../src/core/runStore/ownRuns';
import type { MassGenApi } from '../../src/vscode/extensionApi';
import { TeamMcpServerProvider } from '../../src/vscode/lm/teamMcpServer';
import { startLoopbackTeam, type LoopbackTeam } from '../servers/loopbackTeam';
import { snapshotFiles, until, useConfig, workspaceRoot } from './hostWaits';

const extensionId = 'massgen.massgen-vscode';
const storedKey = 'sk-mcp-stored-key-3b91f0c2d7';

describe('MassGen team as an MCP server for agent mode (in VS Code)', function () {
	this.timeout(90_000);
	let extension: vscode.Extension<MassGenApi>;
	let team: LoopbackTeam;
	let config: string;
	let trusted = true;
	let provider: TeamMcpServerProvider;
	const secretsChanged = new vscode.EventEmitter<unknown>();

	before(async () => {
		const found = vscode.extensions.getExtension<MassGenApi>(extensionId);
		assert.ok(found);
		extension = found;
		await extension.activate();
		team = await startLoopbackTeam();
		config = join(mkdtempSync(join(tmpdir(), 'massgen-host-mcp-')), 'team.yaml');
		writeFileSync(config, team.configYaml());
		provider = new TeamMcpServerProvider({
			extensionUri: extension.extensionUri,
			version: 'test',
			storedKeys: async () => ({ OPENAI_API_KEY: storedKey }),
			onDidChangeSecrets: secretsChanged.event,
			trusted: () => trusted,
		});
	});
	afterEach(async () => {
		trusted = true;
		await useConfig(undefined);
	});
	after(async () => {
		provider?.dispose();
		await team?.close();
	});

	it('lists the bundled CLI on the first folder with the user’s config; keys only at start, only trusted', async () => {
		await useConfig(config);
		const root = workspaceRoot();
		const [server, ...more] = (await provider.provideMcpServerDefinitions()) ?? [];
		assert.ok(server);
		assert.equal(more.length, 0);
		assert.equal(server.label, 'MassGen team');
		assert.equal(server.command, process.execPath);
		assert.deepEqual(server.args, [
			join(extension.extensionPath, 'dist', 'cli.js'),
			'mcp',
			'--workspace',
			root,
			'--config',
			config,
		]);
		assert.equal(server.cwd?.fsPath, root);
		// The listing carries no key.
		assert.deepEqual(server.env, { ELECTRON_RUN_AS_NODE: '1' });
		const resolved = await provider.resolveMcpServerDefinition(server);
		assert.equal(resolved?.env['OPENAI_API_KEY'], storedKey);

		// A key change re-announces the server with a new version (VS Code offers to refresh its tools).
		const announced = new Promise<void>((done) => provider.onDidChangeMcpServerDefinitions(() => done()));
		secretsChanged.fire(undefined);
		await announced;
		const [again] = (await provider.provideMcpServerDefinitions()) ?? [];
		assert.notEqual(again?.version, server.version);

		// Restricted Mode: nothing listed, nothing started, no key handed out.
		trusted = false;
		assert.deepEqual(await provider.provideMcpServerDefinitions(), []);
		assert.equal(await provider.resolveMcpServerDefinition(server), undefined);
	});

	it('started as VS Code starts it, its ask_team answers on the loopback team and writes nothing', async () => {
		await useConfig(config);
		const root = workspaceRoot();
		const [listed] = (await provider.provideMcpServerDefinitions()) ?? [];
		assert.ok(listed);
		const server = await provider.resolveMcpServerDefinition(listed);
		assert.ok(server);
		const before = snapshotFiles(root);
		const env = Object.fromEntries(
			Object.entries({ ...process.env, ...server.env }).filter(
				(entry): entry is [string, string] => typeof entry[1] === 'string',
			),
		);
		const transport = new StdioClientTransport({
			command: server.command,
			args: server.args,
			env,
			cwd: server.cwd?.fsPath,
			stderr: 'ignore',
		});
		const client = new Client({ name: 'massgen-host-test', version: '1.0.0' });
		await client.connect(transport);
		try {
			const { tools } = await client.listTools();
			assert.deepEqual(tools.map((tool) => tool.name).sort(), [
				'ask_team',
				'list_runs',
				'review_changes',
				'show_run',
			]);
			const progress: string[] = [];
			const result = (await client.callTool(
				{ name: 'ask_team', arguments: { question: 'What is in this workspace?' } },
				undefined,
				{ onprogress: (p) => progress.push(p.message ?? ''), timeout: 60_000 },
			)) as CallToolResult;
			const text = result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
			assert.ok(!result.isError, text);
			assert.match(text, /Final answer:\nFinal answer \(presented by the \w+ agent\)/);
			assert.match(text, /run id: \d{8}-\d{6}-[0-9a-z]{4} \(completed\)/);
			assert.ok(
				progress.some((line) => / is presenting the final answer$/.test(line)),
				progress.join('\n'),
			);
			// The stored key went to the server, never into what it answers.
			assert.ok(!text.includes(storedKey));
		} finally {
			await client.close();
		}
		for (const server of Object.values(team.servers)) {
			assert.ok(server.requests.some((r) => r.rawBody.includes('What is in this workspace?')));
		}
		assert.deepEqual(snapshotFiles(root), before);
	});

	it('massgen.instructions.enabled false reaches the server as --no-instructions', async () => {
		await useConfig(config);
		const global = vscode.ConfigurationTarget.Global;
		const [on] = (await provider.provideMcpServerDefinitions()) ?? [];
		assert.ok(on);
		assert.ok(!on.args.includes('--no-instructions'), on.args.join(' '));
		await vscode.workspace.getConfiguration().update('massgen.instructions.enabled', false, global);
		try {
			const [off] = (await provider.provideMcpServerDefinitions()) ?? [];
			assert.ok(off);
			assert.equal(off.args.at(-1), '--no-instructions');
		} finally {
			await vscode.workspace.getConfiguration().update('massgen.instructions.enabled', undefined, global);
		}
	});

	it('the budget settings reach the server: a day the workspace already spent refuses ask_team before any model call', async () => {
		await useConfig(config);
		const root = workspaceRoot();
		const global = vscode.ConfigurationTarget.Global;
		// A run of this machine started now whose result says it spent $5 (read back by spentOnDay).
		const runId = newRunId(new Date(), Math.random);
		await recordOwnRun(root, runId);
		mkdirSync(runDirOf(root, runId), { recursive: true });
		const usage = [{ agentId: 'a', costUsd: 5 }];
		writeFileSync(join(runDirOf(root, runId), 'result.json'), JSON.stringify({ runId, usage, changes: [] }));
		const spent = (await spentOnDay(root, new Date())).usd;
		await vscode.workspace.getConfiguration().update('massgen.maxCostUsd', 0.5, global);
		await vscode.workspace.getConfiguration().update('massgen.maxCostUsdPerDay', spent, global);
		// Model calls only: the Team view and the model picker probe a local server with GET …/models
		// whenever settings change (as the two updates above do).
		const calls = () =>
			Object.values(team.servers).map((server) => server.requests.filter((r) => r.method === 'POST').length);
		const mark = calls();
		try {
			const [listed] = (await provider.provideMcpServerDefinitions()) ?? [];
			assert.ok(listed);
			assert.deepEqual(listed.args.slice(-4), ['--max-cost', '0.5', '--max-cost-per-day', String(spent)]);
			const server = await provider.resolveMcpServerDefinition(listed);
			assert.ok(server);
			const env = Object.fromEntries(
				Object.entries({ ...process.env, ...server.env }).filter(
					(entry): entry is [string, string] => typeof entry[1] === 'string',
				),
			);
			const client = new Client({ name: 'massgen-host-test', version: '1.0.0' });
			await client.connect(
				new StdioClientTransport({
					command: server.command,
					args: server.args,
					env,
					cwd: server.cwd?.fsPath,
					stderr: 'ignore',
				}),
			);
			try {
				const result = (await client.callTool(
					{ name: 'ask_team', arguments: { question: 'Spend more today?' } },
					undefined,
					{ timeout: 60_000 },
				)) as CallToolResult;
				const text = result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
				assert.ok(result.isError, text);
				assert.match(text, /the team did not start \(budget\): today's runs in this workspace spent/);
			} finally {
				await client.close();
			}
			assert.deepEqual(calls(), mark, 'no model call');
		} finally {
			await vscode.workspace.getConfiguration().update('massgen.maxCostUsd', undefined, global);
			await vscode.workspace.getConfiguration().update('massgen.maxCostUsdPerDay', undefined, global);
			rmSync(runDirOf(root, runId), { recursive: true, force: true });
		}
	});

	it('VS Code starts the registered server itself: its tools join vscode.lm.tools and ask_team answers through vscode.lm', async () => {
		await useConfig(config);
		const root = workspaceRoot();
		const before = snapshotFiles(root);
		// VS Code's own command (what its MCP view's Start runs), for every server, until their tools are live.
		await vscode.commands.executeCommand('workbench.mcp.startServer', '*', { waitForLiveTools: true });
		const tool = await until('ask_team in vscode.lm.tools', () =>
			vscode.lm.tools.find(
				(candidate) => /ask_team$/.test(candidate.name) && /NOT applied/.test(candidate.description),
			),
		);
		const prefix = tool.name.slice(0, -'ask_team'.length);
		for (const name of ['list_runs', 'show_run', 'review_changes']) {
			assert.ok(
				vscode.lm.tools.some((candidate) => candidate.name === `${prefix}${name}`),
				`${prefix}${name} in vscode.lm.tools`,
			);
		}
		const schema = tool.inputSchema as { required?: string[] };
		assert.deepEqual(schema.required, ['question']);
		const result = await vscode.lm.invokeTool(tool.name, {
			input: { question: 'Which file should I read first?' },
			toolInvocationToken: undefined,
		});
		const text = result.content
			.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : ''))
			.join('\n');
		assert.match(text, /Final answer:\nFinal answer \(presented by the \w+ agent\)/);
		assert.match(text, /run id: \d{8}-\d{6}-[0-9a-z]{4} \(completed\)/);
		for (const server of Object.values(team.servers)) {
			assert.ok(server.requests.some((r) => r.rawBody.includes('Which file should I read first?')));
		}
		assert.deepEqual(snapshotFiles(root), before);
	});
});
