// In-host: the workspace's AGENTS.md reaches every agent's first request (four SDKs against loopback
// servers) and the panel's run state lists it; `massgen.instructions.enabled: false` stops it; and in
// Restricted Mode (Workspace Trust as the run reads it, injected: code-server here runs with trust
// disabled) it is not used whatever the setting says.
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import { commandIds } from '../../src/vscode/common/commandIds';
import { KeyStore } from '../../src/vscode/common/secrets';
import { composeRuns } from '../../src/vscode/composeRunPanel';
import type { MassGenApi } from '../../src/vscode/extensionApi';
import type { RunController } from '../../src/vscode/run/runController';
import type { FinishedRun } from '../../src/vscode/run/runTypes';
import { WorkspaceConsent } from '../../src/vscode/trust/workspaceConsent';
import { startLoopbackTeam, type LoopbackTeam } from '../servers/loopbackTeam';
import { useConfig } from './hostWaits';

const rule = 'INHOST-AGENTS-RULE-3d7c: answer in British English.';
const enabledKey = 'massgen.instructions.enabled';

describe('Project instructions (in VS Code, loopback servers)', function () {
	this.timeout(60_000);
	let api: MassGenApi;
	let team: LoopbackTeam;
	let configDir: string;
	let root: string;
	let untrusted: RunController;
	const disposables: vscode.Disposable[] = [];
	let agentsWasThere = false;

	const requestCounts = () =>
		Object.fromEntries(Object.entries(team.servers).map(([protocol, s]) => [protocol, s.requests.length]));
	/** Every request each server got after `seen`. */
	const requestsSince = (seen: Record<string, number>) =>
		Object.entries(team.servers).map(([protocol, server]) => ({
			protocol,
			requests: server.requests.slice(seen[protocol] ?? 0),
		}));

	before(async () => {
		const extension = vscode.extensions.getExtension<MassGenApi>('massgen.massgen-vscode');
		assert.ok(extension);
		api = await extension.activate();
		const folder = vscode.workspace.workspaceFolders?.[0];
		assert.ok(folder, 'the test window has a workspace folder');
		root = folder.uri.fsPath;
		agentsWasThere = existsSync(join(root, 'AGENTS.md'));
		assert.equal(agentsWasThere, false, 'the fixture workspace has no AGENTS.md of its own');
		writeFileSync(join(root, 'AGENTS.md'), `${rule}\n`);
		team = await startLoopbackTeam();
		configDir = mkdtempSync(join(tmpdir(), 'massgen-instructions-'));
		writeFileSync(join(configDir, 'team.yaml'), team.configYaml());
		await useConfig(join(configDir, 'team.yaml'));
		const log = vscode.window.createOutputChannel('MassGen instructions test', { log: true });
		const side = composeRuns({
			extensionUri: extension.extensionUri,
			log,
			keys: new KeyStore({ get: async () => undefined, store: async () => {}, delete: async () => {} }),
			validateConfig: async () => [],
			env: { ...process.env },
			consent: new WorkspaceConsent(memento(), async () => false),
			isTrusted: () => false,
		});
		untrusted = side.runs;
		disposables.push(log, side);
	});

	afterEach(async () => {
		await vscode.workspace
			.getConfiguration()
			.update(enabledKey, undefined, vscode.ConfigurationTarget.Global);
	});

	after(async () => {
		for (const d of disposables.reverse()) d.dispose();
		await useConfig(undefined);
		await team?.close();
		rmSync(configDir, { recursive: true, force: true });
		rmSync(join(root, 'AGENTS.md'), { force: true });
	});

	async function askTeam(question: string): Promise<FinishedRun> {
		const run = await vscode.commands.executeCommand<FinishedRun | undefined>(commandIds.askTeam, {
			question,
		});
		assert.ok(run, 'the run finished');
		assert.equal(run.result.status, 'completed', run.result.error);
		return run;
	}

	it('trusted: AGENTS.md opens every agent’s first request and the panel lists it', async () => {
		const seen = requestCounts();
		await askTeam('What are the conventions here?');
		for (const { protocol, requests } of requestsSince(seen)) {
			const first = requests.find((request) => request.prompt.texts.length > 0);
			assert.ok(first, `${protocol}: a request`);
			assert.ok(
				first.prompt.texts[0]!.startsWith(`<PROJECT INSTRUCTIONS>`),
				`${protocol}: the section opens the first message`,
			);
			assert.ok(
				first.prompt.texts[0]!.includes(`<instructions source="AGENTS.md">\n${rule}\n</instructions>`),
				`${protocol}: AGENTS.md's text`,
			);
		}
		assert.deepEqual(
			api.lastState()?.instructions?.map((file) => file.path),
			['AGENTS.md'],
		);
	});

	it('massgen.instructions.enabled: false — no server sees AGENTS.md', async () => {
		await vscode.workspace.getConfiguration().update(enabledKey, false, vscode.ConfigurationTarget.Global);
		const seen = requestCounts();
		await askTeam('What are the conventions here? (instructions off)');
		for (const { protocol, requests } of requestsSince(seen)) {
			assert.ok(requests.length > 0, `${protocol}: requests`);
			for (const request of requests) assert.ok(!request.rawBody.includes(rule), `${protocol}: no AGENTS.md`);
		}
		assert.equal(api.lastState()?.instructions, undefined);
	});

	it('Restricted Mode: AGENTS.md is not used though the setting is on', async () => {
		await vscode.workspace.getConfiguration().update(enabledKey, true, vscode.ConfigurationTarget.Global);
		const seen = requestCounts();
		const run = await untrusted.start({
			kind: 'ask',
			question: 'What are the conventions here? (restricted)',
			folder: vscode.Uri.file(root),
		});
		assert.ok(run, 'the run finished');
		assert.equal(run.result.status, 'completed', run.result.error);
		for (const { protocol, requests } of requestsSince(seen)) {
			assert.ok(requests.length > 0, `${protocol}: requests`);
			for (const request of requests) assert.ok(!request.rawBody.includes(rule), `${protocol}: no AGENTS.md`);
		}
	});
});

function memento(): Pick<vscode.Memento, 'get' | 'update'> {
	const values = new Map<string, unknown>();
	return {
		get: (key: string) => values.get(key),
		update: async (key: string, value: unknown) => void values.set(key, value),
	} as Pick<vscode.Memento, 'get' | 'update'>;
}
