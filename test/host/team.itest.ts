// In-host: the Team view's rows and reasons (env key, stored key, no key, a local server up and
// down on loopback ports), its edit actions through their commands (one undoable edit), the demo
// entry, and Build Team driven step by step, writing a config that validates and then runs.
import * as assert from 'node:assert/strict';
import { createServer, request, type Server } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import { loadConfigText } from '../../src/core/config/loadConfig';
import { commandIds } from '../../src/vscode/common/commandIds';
import type { MassGenApi } from '../../src/vscode/extensionApi';
import { engineLoader, loadEngineBundle } from '../../src/vscode/run/loadEngine';
import { KeyStore } from '../../src/vscode/common/secrets';
import type { FinishedRun } from '../../src/vscode/run/runTypes';
import type { TeamNode } from '../../src/vscode/team/teamTree';
import { TeamTreeProvider } from '../../src/vscode/team/teamTreeProvider';
import { TeamStats } from '../../src/vscode/team/teamStats';
import { startLoopbackTeam, type LoopbackTeam } from '../servers/loopbackTeam';
import { endRunAndConfig, nextFinish, until, useConfig, workspaceRoot } from './hostWaits';

/** An OpenAI-compatible local server: `/v1/models` answered here, the rest passed to `upstream`. */
function localServer(models: string[], upstream?: string): Server {
	return createServer((req, res) => {
		if (req.url === '/v1/models') {
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ object: 'list', data: models.map((id) => ({ id, object: 'model' })) }));
			return;
		}
		if (!upstream) return void res.writeHead(404).end();
		const target = new URL(upstream.replace(/\/v1$/, '') + (req.url ?? ''));
		const forward = request(
			target,
			{ method: req.method, headers: { ...req.headers, host: target.host } },
			(up) => {
				res.writeHead(up.statusCode ?? 502, up.headers);
				up.pipe(res);
			},
		);
		req.pipe(forward);
	});
}
const listen = (server: Server, port = 0) =>
	new Promise<number>((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, () => resolve((server.address() as AddressInfo).port));
	});
const close = (server: Server) =>
	new Promise<void>((done) => (server.closeAllConnections(), server.close(() => done())));

describe('Team view and Build Team (in VS Code)', function () {
	this.timeout(90_000);
	let api: MassGenApi;
	let extension: vscode.Extension<MassGenApi>;
	let dir: string;
	let up: Server;
	let upUrl: string;
	let downUrl: string;
	const saved = { anthropic: process.env['ANTHROPIC_API_KEY'], xai: process.env['XAI_API_KEY'] };

	const rows = async (provider = api.teamView.provider) => {
		provider.refresh();
		return (await provider.getChildren()) as TeamNode[];
	};
	const agentItem = (nodes: TeamNode[], id: string) => {
		const node = nodes.find((n) => n.kind === 'agent' && n.row.id === id);
		assert.ok(node, `a row for ${id}`);
		return { node, item: api.teamView.provider.getTreeItem(node) };
	};

	before(async () => {
		const found = vscode.extensions.getExtension<MassGenApi>('massgen.massgen-vscode');
		assert.ok(found);
		extension = found;
		api = await extension.activate();
		dir = mkdtempSync(join(tmpdir(), 'massgen-team-'));
		up = localServer(['qwen3:8b']);
		upUrl = `http://127.0.0.1:${await listen(up)}/v1`;
		const gone = createServer();
		downUrl = `http://127.0.0.1:${await listen(gone)}/v1`;
		await close(gone);
		process.env['ANTHROPIC_API_KEY'] = 'sk-ant-team-view-env';
		delete process.env['XAI_API_KEY'];
	});

	after(async () => {
		await endRunAndConfig(api);
		await close(up);
		if (saved.anthropic === undefined) delete process.env['ANTHROPIC_API_KEY'];
		else process.env['ANTHROPIC_API_KEY'] = saved.anthropic;
		if (saved.xai !== undefined) process.env['XAI_API_KEY'] = saved.xai;
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
		rmSync(dir, { recursive: true, force: true });
	});

	const teamFile = () => join(dir, 'team.yaml');
	const writeTeam = () =>
		writeFileSync(
			teamFile(),
			[
				'# my team',
				'agents:',
				'  - id: env_claude',
				'    backend: { type: claude, model: claude-haiku-4-5 }',
				'    system_message: You review.',
				'  - id: no_key',
				'    backend: { type: grok, model: grok-4 }',
				'  - id: local_up',
				`    backend: { type: ollama, model: qwen3:8b, base_url: "${upUrl}" }`,
				'  - id: local_down',
				`    backend: { type: vllm, model: m, base_url: "${downUrl}" }`,
				'',
			].join('\n'),
		);

	it('rows: env key, no key, local server up and down; the missing key stops a run, as Ask Team says', async () => {
		writeTeam();
		await useConfig(teamFile());
		const nodes = await rows();
		assert.equal(nodes[0]?.kind, 'source');
		const env = agentItem(nodes, 'env_claude').item;
		// A missing key stops the whole run, so the available ones say they are not run.
		assert.equal(
			env.description,
			'key in the environment (ANTHROPIC_API_KEY) (not run) · claude/claude-haiku-4-5',
		);
		assert.match(String(env.tooltip), /\nRole: You review\.$/);
		assert.equal(env.contextValue, 'agent editable');
		const noKey = agentItem(nodes, 'no_key').item;
		assert.equal(noKey.description, 'no API key (set XAI_API_KEY) · grok/grok-4');
		assert.equal(noKey.contextValue, 'agent editable needsKey');
		assert.equal(
			agentItem(nodes, 'local_up').item.description,
			`ollama server answering at ${upUrl} (not run) · ollama/qwen3:8b`,
		);
		assert.equal(
			agentItem(nodes, 'local_down').item.description,
			`no vllm server at ${downUrl} (start it, or set base_url) · vllm/m`,
		);
		const problem = nodes.find((n) => n.kind === 'problem');
		assert.ok(problem && problem.kind === 'problem');
		assert.match(problem.message, /agent 'no_key': no API key: set XAI_API_KEY/);
		// Ask Team refuses with the same reason.
		const run = await vscode.commands.executeCommand<unknown>(commandIds.askTeam, 'Hello?');
		assert.equal(run, undefined);
	});

	it('a stored key (KeyStore over a secret store) is named as stored', async () => {
		const store = new Map<string, string>([['XAI_API_KEY', 'xai-stored']]);
		const secrets = {
			get: async (key: string) => store.get(key),
			store: async (key: string, value: string) => void store.set(key, value),
			delete: async (key: string) => void store.delete(key),
		};
		const engine = engineLoader(() => loadEngineBundle(join(extension.extensionPath, 'dist')), {
			info: () => undefined,
		});
		const stats = new TeamStats();
		const provider = new TeamTreeProvider(
			{
				engine,
				keys: new KeyStore(secrets),
				shippedConfigsDir: join(extension.extensionPath, 'configs'),
				log: vscode.window.createOutputChannel('team test', { log: true }),
			},
			(root) => stats.board(root),
		);
		const nodes = await rows(provider);
		const item = provider.getTreeItem(nodes.find((n) => n.kind === 'agent' && n.row.id === 'no_key')!);
		assert.equal(item.description, 'key stored in VS Code (XAI_API_KEY) · grok/grok-4');
		// With every key there, nothing stops the run: the problem row is gone.
		assert.equal(
			nodes.some((n) => n.kind === 'problem'),
			false,
		);
		provider.dispose();
	});

	it('Edit Role and Change Model edit the file as one undoable edit; nothing available offers the demo', async () => {
		writeTeam();
		await useConfig(teamFile());
		const node = agentItem(await rows(), 'local_up').node;
		assert.equal(
			await vscode.commands.executeCommand(commandIds.teamEditRole, node, 'You are the skeptic.'),
			true,
		);
		const edited = loadConfigText(readFileSync(teamFile(), 'utf8'), teamFile()).config!;
		assert.equal(edited.agents[2]?.system_message, 'You are the skeptic.');
		assert.match(readFileSync(teamFile(), 'utf8'), /^# my team/);
		const document = await vscode.workspace.openTextDocument(teamFile());
		await vscode.window.showTextDocument(document);
		await vscode.commands.executeCommand('undo');
		assert.doesNotMatch(document.getText(), /skeptic/);
		await document.save();
		const again = agentItem(await rows(), 'local_up').node;
		assert.equal(await vscode.commands.executeCommand(commandIds.teamChangeModel, again, 'llama3.2'), true);
		assert.equal(
			loadConfigText(readFileSync(teamFile(), 'utf8'), teamFile()).config!.agents[2]?.backend.model,
			'llama3.2',
		);
		const shown = agentItem(await rows(), 'local_up').item;
		assert.match(String(shown.description), / · ollama\/llama3\.2$/);

		writeFileSync(teamFile(), 'agents:\n  - id: no_key\n    backend: { type: grok, model: grok-4 }\n');
		const bare = await rows();
		const demo = bare.find((n) => n.kind === 'demo');
		assert.ok(demo, 'a Run demo team row');
		assert.equal(api.teamView.provider.getTreeItem(demo).command?.command, commandIds.teamRunDemo);
	});

	/**
	 * Build Team through every step (a local server on a usual port relaying to the loopback chat
	 * server; `voting` picks the voting step's item), then `check` with the written, validated team.
	 */
	async function buildTeamThrough(
		voting: string,
		check: (written: {
			text: string;
			loaded: ReturnType<typeof loadConfigText>;
			team: LoopbackTeam;
		}) => Promise<void>,
	): Promise<void> {
		const team: LoopbackTeam = await startLoopbackTeam();
		// A local server on its usual port (Ollama's, else the next), relaying to the loopback chat server.
		const usual = [
			['ollama', 11434],
			['lmstudio', 1234],
			['vllm', 8000],
			['sglang', 30000],
		] as const;
		let local: Server | undefined;
		let type = '';
		for (const [name, port] of usual) {
			const server = localServer(['loopback-chat'], team.servers.chat.baseUrl);
			try {
				await listen(server, port);
				local = server;
				type = name;
				break;
			} catch {
				await close(server).catch(() => undefined);
			}
		}
		assert.ok(local, 'one of the usual local-server ports is free');
		const root = workspaceRoot();
		const config = join(root, '.massgen', 'config.yaml');
		const backup = `${config}.team-test`;
		if (existsSync(config)) renameSync(config, backup);
		await useConfig(undefined);
		/** Down-arrow (VS Code's command) until the highlighted item is the wanted one; Enter then takes it. */
		const highlight = async (
			input: unknown,
			wanted: (item: vscode.QuickPickItem & { type?: string }) => boolean,
		) => {
			const pick = input as vscode.QuickPick<vscode.QuickPickItem & { type?: string }>;
			assert.ok(
				pick.items.some(wanted),
				`offered: ${pick.items.map((i) => `${i.type}:${i.label}`).join(', ')}`,
			);
			for (let i = 0; i <= pick.items.length && !(pick.activeItems[0] && wanted(pick.activeItems[0])); i++) {
				const before = pick.activeItems[0];
				await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
				await until('the highlight to move', () => pick.activeItems[0] !== before, 10_000);
			}
		};
		const answers: Record<
			string,
			(input: vscode.QuickPick<vscode.QuickPickItem> | vscode.InputBox) => unknown
		> = {
			members: (input) => highlight(input, (item) => item.type === type && item.label === 'loopback-chat'),
			'role:0': (input) => ((input as vscode.InputBox).value = 'You are terse.'),
			voting: (input) => highlight(input, (item) => item.label === voting),
			answers: (input) => ((input as vscode.InputBox).value = '2'),
			timeout: (input) => ((input as vscode.InputBox).value = ''),
			quorum: (input) => highlight(input, (item) => item.label === 'majority'),
			where: (input) => highlight(input, (item) => item.label === 'This workspace'),
		};
		// Each step as it shows; the test answers it and presses Enter (VS Code's accept command).
		const shown: [string, vscode.QuickPick<vscode.QuickPickItem> | vscode.InputBox][] = [];
		const listener = api.teamView.onDidShowBuilderStep((step) => shown.push(step));
		try {
			const command = vscode.commands.executeCommand<string | undefined>(commandIds.buildTeam);
			for (const name of ['members', 'role:0', 'voting', 'answers', 'timeout', 'quorum', 'where']) {
				const [step, input] = await until(`the builder's ${name} step`, () => shown.shift(), 30_000);
				assert.equal(step, name);
				await answers[name]!(input);
				await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
			}
			const file = await command;
			assert.equal(file, config);
			const text = readFileSync(config, 'utf8');
			assert.match(text, /^# Written by MassGen: Build Team\./);
			const loaded = loadConfigText(text, config);
			assert.deepEqual(loaded.issues, []);
			const agent = loaded.config!.agents[0]!;
			assert.equal(agent.backend.type, type);
			assert.equal(agent.backend.model, 'loopback-chat');
			assert.equal(agent.system_message, 'You are terse.');
			await check({ text, loaded, team });
		} finally {
			listener.dispose();
			await close(local);
			await team.close();
			rmSync(config, { force: true });
			if (existsSync(backup)) renameSync(backup, config);
			await until('no run', () => !api.runs.isRunning);
		}
	}

	it('Build Team: members, role, options, place; the file validates and the team runs', async function () {
		await buildTeamThrough('strict', async ({ loaded, team }) => {
			assert.equal(loaded.config!.orchestrator.voting_sensitivity, 'strict');
			assert.equal(loaded.config!.orchestrator.max_new_answers_per_agent, 2);
			assert.equal(loaded.config!.orchestrator.coordination?.quorum, 'majority');
			// The view shows the new team; Ask Team runs it (through the local server to the loopback one).
			const nodes = await rows();
			assert.equal(agentItem(nodes, 'loopback-chat').item.contextValue, 'agent editable');
			const before = team.servers.chat.requests.length;
			let run: FinishedRun | undefined;
			void nextFinish(api).then((finished) => (run = finished));
			// The builder opened the new file; Ask Team would attach the active editor's file.
			await vscode.commands.executeCommand('workbench.action.closeAllEditors');
			void vscode.commands.executeCommand(commandIds.askTeam, 'What is 2 + 2?');
			await until('the run to end', () => run, 40_000).catch((error: unknown) => {
				console.log(`team test: state ${JSON.stringify(api.lastState())?.slice(0, 3000)}`);
				throw error;
			});
			assert.ok(run);
			assert.equal(run.result.status, 'completed', run.result.error);
			assert.ok(team.servers.chat.requests.length > before, 'the loopback server was asked');
		});
	});

	it('Build Team: "Evaluate with a checklist" writes a checklist team that validates', async function () {
		await buildTeamThrough('Evaluate with a checklist', async ({ text, loaded }) => {
			const { orchestrator } = loaded.config!;
			assert.equal(orchestrator.voting_sensitivity, 'checklist_gated');
			assert.equal(orchestrator.voting_threshold, 7);
			assert.deepEqual(orchestrator.coordination?.evaluation_criteria_generator, { enabled: true });
			assert.equal(orchestrator.coordination?.criteria_mode, 'bootstrap_inline');
			assert.equal(orchestrator.coordination?.quorum, 'majority');
			assert.match(text, /# checklist_gated: before voting, agents score every answer on the checklist/);
		});
	});
});
