// In-host: a cloned repository's own parts (a stdio MCP server in `.massgen/config.yaml`,
// `.vscode/mcp.json` and `.mcp.json`; an HTTP server there whose url and headers read
// `${env:SOME_TOKEN}`) in the real extension host. Restricted Mode (Workspace Trust as the run
// reads it, injected: code-server here runs with trust disabled) starts nothing, connects nothing
// and expands nothing, whatever `massgen.mcp.readWorkspaceServers` says at either level; trusted,
// the consent question lists exactly the commands and the host; declined, nothing starts; allowed,
// all start (the control) and the next run does not ask; a changed command is asked again.
import * as assert from 'node:assert/strict';
import {
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, it } from 'mocha';
import * as vscode from 'vscode';
import { stringify } from 'yaml';
import { ApprovalBroker } from '../../src/core/permissions/approvalBroker';
import { composeRuns } from '../../src/vscode/composeRunPanel';
import type { RunController } from '../../src/vscode/run/runController';
import type { FinishedRun } from '../../src/vscode/run/runTypes';
import { KeyStore } from '../../src/vscode/common/secrets';
import { type ConsentQuestion, WorkspaceConsent } from '../../src/vscode/trust/workspaceConsent';
import { useConfig, workspaceRoot } from './hostWaits';

const token = 'tok-workspace-trust-4c1e9a';
const readKey = 'massgen.mcp.readWorkspaceServers';
/**
 * VS Code's own MCP support must not start the same files (then a marker would not be ours): no MCP
 * server at all (`chat.mcp.access`, which replaced the boolean `chat.mcp.enabled`), no other
 * client's config discovered, no root `.mcp.json` read.
 */
const vscodeMcpSettings: Record<string, unknown> = {
	'chat.mcp.access': 'none',
	'chat.mcp.discovery.enabled': {},
	'chat.mcp.workspaceRootConfig.enabled': false,
};

describe('Workspace Trust and consent for the workspace’s own programs (in VS Code)', function () {
	this.timeout(120_000);
	const disposables: vscode.Disposable[] = [];
	const warnings: string[] = [];
	const asked: ConsentQuestion[] = [];
	let answer = false;
	let trusted = true;
	let root: string;
	let markers: string;
	/** Stands in for the repository's HTTP MCP host: records what each request carried (url and headers). */
	let http: { server: Server; url: string; seen: { url: string; headers: IncomingHttpHeaders }[] };
	let runs: RunController;
	const written: string[] = [];
	const broker = new ApprovalBroker();
	/** Approval requests of the runs (each denied at once: the test only needs to see who asked). */
	const requests: string[] = [];
	/** `.vscode/` did not exist before: the workspace setting's settings.json goes with it. */
	let vscodeDirWasThere = true;
	let teamFixture: string;

	before(async () => {
		const extension = vscode.extensions.getExtension('massgen.massgen-vscode');
		assert.ok(extension);
		await extension.activate();
		root = workspaceRoot();
		teamFixture = join(extension.extensionPath, 'test', 'fixtures', 'vscode', 'team.yaml');
		vscodeDirWasThere = existsSync(join(root, '.vscode'));
		const seen: { url: string; headers: IncomingHttpHeaders }[] = [];
		const server = createServer((req, res) => {
			seen.push({ url: req.url ?? '', headers: req.headers });
			res.writeHead(404).end();
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		http = { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, seen };
		for (const [key, value] of Object.entries(vscodeMcpSettings)) {
			await vscode.workspace.getConfiguration().update(key, value, vscode.ConfigurationTarget.Global);
		}
		await useConfig(undefined);
		const log = vscode.window.createOutputChannel('MassGen trust test', { log: true });
		const warn = log.warn.bind(log);
		log.warn = (message: string, ...args: unknown[]) => {
			warnings.push(message);
			warn(message, ...args);
		};
		const side = composeRuns({
			extensionUri: extension.extensionUri,
			log,
			keys: new KeyStore({ get: async () => undefined, store: async () => {}, delete: async () => {} }),
			validateConfig: async () => [],
			env: { ...process.env, SOME_TOKEN: token },
			approvals: { broker },
			consent: new WorkspaceConsent(memento(), async (question) => {
				asked.push(question);
				return answer;
			}),
			isTrusted: () => trusted,
		});
		runs = side.runs;
		disposables.push(log, side);
		const stop = broker.onDidRequest((request) => {
			requests.push(request.target);
			broker.resolve(request.requestId, 'deny');
		});
		disposables.push({ dispose: stop });
	});

	beforeEach(() => {
		markers = mkdtempSync(join(tmpdir(), 'massgen-trust-markers-'));
		warnings.length = 0;
		http.seen.length = 0;
	});

	afterEach(async () => {
		for (const file of written.splice(0)) rmSync(file, { force: true });
		rmSync(markers, { recursive: true, force: true });
		await setRead(undefined, vscode.ConfigurationTarget.Workspace);
		await setRead(undefined, vscode.ConfigurationTarget.Global);
	});

	after(async () => {
		for (const d of disposables.reverse()) d.dispose();
		for (const key of Object.keys(vscodeMcpSettings)) {
			await vscode.workspace.getConfiguration().update(key, undefined, vscode.ConfigurationTarget.Global);
		}
		await new Promise((resolve) => http.server.close(resolve));
		if (!vscodeDirWasThere) rmSync(join(root, '.vscode'), { recursive: true, force: true });
	});

	async function setRead(value: boolean | undefined, target: vscode.ConfigurationTarget): Promise<void> {
		await vscode.workspace.getConfiguration().update(readKey, value, target);
	}

	function write(path: string, text: string): void {
		const file = join(root, path);
		mkdirSync(join(file, '..'), { recursive: true });
		writeFileSync(file, text);
		written.push(file);
	}

	const touch = (name: string) => ['-c', `touch ${join(markers, name)}`];

	/** The scripted team with a stdio server on its first agent that touches `marker`. */
	function teamWithServer(marker: string): string {
		return readFileSync(teamFixture, 'utf8').replace(
			'      model: scripted-planner\n',
			`      model: scripted-planner\n      mcp_servers:\n${indent(
				stringify([{ name: 'cfgsrv', type: 'stdio', command: 'sh', args: touch(marker) }]),
				'        ',
			)}`,
		);
	}

	/** The repository's files: every part touches its own marker (outside the workspace) when started. */
	function plantRepository(suffix = ''): void {
		const touch = (name: string) => ['-c', `touch ${join(markers, name + suffix)}`];
		write(join('.massgen', 'config.yaml'), teamWithServer(`config${suffix}`));
		write(
			join('.vscode', 'mcp.json'),
			JSON.stringify({
				servers: {
					vsstdio: { type: 'stdio', command: 'sh', args: touch('vscode') },
					vshttp: {
						type: 'http',
						url: `${http.url}?t=\${env:SOME_TOKEN}`,
						headers: { Authorization: 'Bearer ${env:SOME_TOKEN}' },
					},
				},
			}),
		);
		write('.mcp.json', JSON.stringify({ mcpServers: { ccstdio: { command: 'sh', args: touch('claude') } } }));
	}

	async function run(question: string): Promise<FinishedRun | undefined> {
		return runs.start({ kind: 'ask', question, folder: vscode.Uri.file(root) });
	}

	const started = () => readdirSync(markers).sort();
	const tokenSeen = () => JSON.stringify(http.seen).includes(token);

	it('Restricted Mode: the workspace’s team config is not used, nothing of it starts or connects, nothing is asked', async () => {
		trusted = false;
		plantRepository();
		await setRead(true, vscode.ConfigurationTarget.Global);
		await setRead(true, vscode.ConfigurationTarget.Workspace);
		const asks = asked.length;
		await run('What does this repository do? (restricted)');
		assert.deepEqual(started(), [], 'no workspace server started');
		assert.equal(http.seen.length, 0, 'the HTTP server got no request');
		assert.equal(asks, asked.length, 'Restricted Mode asks nothing');
		assert.ok(
			warnings.some((w) => w.includes('its team config (.massgen/config.yaml) is not used')),
			`the skipped config is said: ${warnings.join(' | ')}`,
		);
	});

	it('Restricted Mode with the user’s own config: the MCP files are not read though both levels turn it on; trusted and allowed, the same files start (control)', async () => {
		const config = mkdtempSync(join(tmpdir(), 'massgen-trust-config-'));
		try {
			const file = join(config, 'team.yaml');
			writeFileSync(file, readFileSync(teamFixture));
			await useConfig(file);
			plantRepository();
			await setRead(true, vscode.ConfigurationTarget.Global);
			await setRead(true, vscode.ConfigurationTarget.Workspace);
			trusted = false;
			const asks = asked.length;
			const restricted = await run('Restricted, with my own team');
			assert.equal(restricted?.result.status, 'completed', restricted?.result.error ?? undefined);
			assert.deepEqual(started(), []);
			assert.equal(http.seen.length, 0, 'the HTTP server got no request');
			assert.equal(asked.length, asks, 'Restricted Mode asks nothing');
			for (const note of [
				'from the workspace settings is ignored',
				'is on, but the workspace is not trusted',
			]) {
				assert.ok(
					warnings.some((w) => w.includes(readKey) && w.includes(note)),
					`${note}: ${warnings.join(' | ')}`,
				);
			}

			trusted = true;
			answer = true;
			const allowed = await run('Trusted and allowed, with my own team');
			assert.equal(allowed?.result.status, 'completed', allowed?.result.error ?? undefined);
			assert.deepEqual(started(), ['claude', 'vscode']);
			assert.ok(tokenSeen(), 'the allowed HTTP server got the expanded header');
		} finally {
			await useConfig(undefined);
			rmSync(config, { recursive: true, force: true });
		}
	});

	it('trusted: the question lists every command and the host; declined, nothing starts or connects and each refusal is said', async () => {
		trusted = true;
		answer = false;
		plantRepository();
		// A coding agent whose CLI the repository names: a stand-in that would leave a mark.
		const cli = join(markers, 'claude-stand-in.sh');
		writeFileSync(cli, `#!/bin/sh\ntouch ${join(markers, 'cli')}\n`, { mode: 0o755 });
		const configFile = join(root, '.massgen', 'config.yaml');
		writeFileSync(
			configFile,
			readFileSync(configFile, 'utf8').replace(
				'agents:\n',
				`agents:\n  - id: coder\n    backend: { type: claude_code, model: claude-sonnet-4-5, cli_path: "${cli}" }\n`,
			),
		);
		await setRead(true, vscode.ConfigurationTarget.Workspace);
		const asks = asked.length;
		const declined = await run('What does this repository do? (declined)');
		assert.equal(asked.length, asks + 1, 'asked once');
		const { detail } = asked.at(-1)!;
		for (const name of ['config', 'vscode', 'claude']) {
			assert.ok(detail.includes(`sh -c 'touch ${join(markers, name)}'`), `${name}: ${detail}`);
		}
		assert.ok(detail.includes(`runs ${cli} as its claude_code CLI`), detail);
		assert.ok(detail.includes('SOME_TOKEN') && detail.includes(http.url), detail);
		assert.ok(!detail.includes(token), 'the question names the variable, never its value');
		assert.equal(declined?.result.status, 'completed', declined?.result.error ?? undefined);
		assert.deepEqual(started(), ['claude-stand-in.sh'], 'nothing ran: no marker beside the stand-in');
		const coder = JSON.stringify(declined.state.agents['coder'] ?? null);
		assert.ok(coder.includes("agent 'coder' is left out"), `the coder was left out: ${coder}`);
		assert.equal(http.seen.length, 0);
		for (const server of ['cfgsrv', 'vsstdio', 'vshttp', 'ccstdio']) {
			assert.ok(
				warnings.some((w) => w.includes(`'${server}'`)),
				`${server}'s refusal is said: ${warnings.join(' | ')}`,
			);
		}
	});

	it('trusted and allowed: everything starts; the next run does not ask; a changed command is asked again', async () => {
		trusted = true;
		answer = true;
		plantRepository();
		await setRead(true, vscode.ConfigurationTarget.Workspace);
		const asks = asked.length;
		await run('Allowed');
		assert.equal(asked.length, asks + 1);
		assert.deepEqual(started(), ['claude', 'config', 'vscode']);
		assert.ok(tokenSeen());

		rmSync(markers, { recursive: true, force: true });
		mkdirSync(markers);
		await run('Allowed before');
		assert.equal(asked.length, asks + 1, 'the same parts are not asked again');
		assert.deepEqual(started(), ['claude', 'config', 'vscode']);

		answer = false;
		rmSync(markers, { recursive: true, force: true });
		mkdirSync(markers);
		plantRepository('-changed');
		await run('Changed command');
		assert.equal(asked.length, asks + 2, 'a changed command is asked again');
		assert.ok(asked.at(-1)!.detail.includes(`${join(markers, 'config')}-changed`));
		assert.deepEqual(started(), [], 'declined this time: nothing starts');
	});

	it('a config outside the folder named by the workspace’s settings is the workspace’s: asked; named by the user’s, not (control)', async () => {
		trusted = true;
		answer = false;
		const config = mkdtempSync(join(tmpdir(), 'massgen-trust-named-'));
		const file = join(config, 'team.yaml');
		writeFileSync(file, teamWithServer('named'));
		try {
			await vscode.workspace
				.getConfiguration()
				.update('massgen.config', file, vscode.ConfigurationTarget.Workspace);
			const asks = asked.length;
			await run('Named by the workspace settings');
			assert.equal(asked.length, asks + 1, 'asked');
			assert.ok(
				asked.at(-1)!.detail.includes(`sh -c 'touch ${join(markers, 'named')}'`),
				asked.at(-1)!.detail,
			);
			assert.deepEqual(started(), [], 'declined: not started');

			await vscode.workspace
				.getConfiguration()
				.update('massgen.config', undefined, vscode.ConfigurationTarget.Workspace);
			await useConfig(file);
			const own = await run('Named by my settings');
			assert.equal(own?.result.status, 'completed', own?.result.error ?? undefined);
			assert.equal(asked.length, asks + 1, 'the user’s own config is not asked about');
			assert.deepEqual(started(), ['named']);
		} finally {
			await vscode.workspace
				.getConfiguration()
				.update('massgen.config', undefined, vscode.ConfigurationTarget.Workspace);
			await useConfig(undefined);
			rmSync(config, { recursive: true, force: true });
		}
	});

	it('trusted: the workspace settings’ allow rules count only once allowed in the same question (declined, the command is asked about)', async () => {
		trusted = true;
		const config = mkdtempSync(join(tmpdir(), 'massgen-trust-allow-'));
		const file = join(config, 'team.yaml');
		writeFileSync(
			file,
			stringify({
				agents: [
					{
						id: 'runner',
						backend: {
							type: 'scripted',
							model: 'scripted-runner',
							enable_command_execution: true,
							script: {
								coordination: [
									{
										tool_calls: [{ name: 'run_command', arguments: { command: 'touch made-by-agent.txt' } }],
										answer: 'done',
									},
									{ vote: 'first' },
								],
							},
						},
					},
					{
						id: 'watcher',
						backend: {
							type: 'scripted',
							model: 'scripted-watcher',
							script: { coordination: [{ answer: 'ok' }, { vote: 'first' }] },
						},
					},
				],
			}),
		);
		const allowKey = 'massgen.permissions.allow';
		try {
			await useConfig(file);
			await vscode.workspace
				.getConfiguration()
				.update(allowKey, ['command(touch *)'], vscode.ConfigurationTarget.Workspace);
			answer = false;
			requests.length = 0;
			const asks = asked.length;
			const declined = await run('Declined allow rules');
			assert.equal(declined?.result.status, 'completed', declined?.result.error ?? undefined);
			assert.equal(asked.length, asks + 1);
			assert.ok(
				asked.at(-1)!.detail.includes('lets these run without asking: command(touch *)'),
				asked.at(-1)!.detail,
			);
			assert.deepEqual(requests, ['touch made-by-agent.txt'], 'declined: the command is asked about');

			answer = true;
			requests.length = 0;
			const allowed = await run('Allowed allow rules');
			assert.equal(allowed?.result.status, 'completed', allowed?.result.error ?? undefined);
			assert.equal(asked.length, asks + 2);
			assert.deepEqual(requests, [], 'allowed: the rule lets it run without asking');
		} finally {
			await vscode.workspace
				.getConfiguration()
				.update(allowKey, undefined, vscode.ConfigurationTarget.Workspace);
			await useConfig(undefined);
			rmSync(config, { recursive: true, force: true });
		}
	});
});

function indent(text: string, prefix: string): string {
	return text
		.trimEnd()
		.split('\n')
		.map((line) => prefix + line)
		.join('\n')
		.concat('\n');
}

function memento(): Pick<vscode.Memento, 'get' | 'update'> {
	const values = new Map<string, unknown>();
	return {
		get: (key: string) => values.get(key),
		update: async (key: string, value: unknown) => void values.set(key, value),
	} as Pick<vscode.Memento, 'get' | 'update'>;
}
