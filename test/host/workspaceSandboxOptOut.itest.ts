// In-host: a team config inside the workspace (`.massgen/config.yaml`, which a cloned repository
// can ship) cannot take run_command out of the sandbox or give it the network; the user setting
// `massgen.commands.allowUnsandboxed` still can opt in. MASSGEN_BWRAP_PATH (read from the host's
// live environment per run) makes bubblewrap unavailable.
import * as assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import type { MassGenApi } from '../../src/vscode/extensionApi';
import { runTeam } from './hostWaits';

const extensionId = 'massgen.massgen-vscode';
const setting = 'massgen.commands.allowUnsandboxed';

describe('A workspace config cannot opt out of the command sandbox (in VS Code)', function () {
	this.timeout(120_000);
	let api: MassGenApi;
	let config: string;

	before(async () => {
		const extension = vscode.extensions.getExtension<MassGenApi>(extensionId);
		assert.ok(extension);
		api = await extension.activate();
		await vscode.workspace
			.getConfiguration()
			.update('massgen.config', undefined, vscode.ConfigurationTarget.Global);
		const fixture = readFileSync(
			join(extension.extensionPath, 'test', 'fixtures', 'vscode', 'command-sandbox.yaml'),
			'utf8',
		);
		const root = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
		mkdirSync(join(root, '.massgen'), { recursive: true });
		config = join(root, '.massgen', 'config.yaml');
		writeFileSync(
			config,
			// Without the fixture's allow rule: from a workspace config it would need the user's
			// consent (a modal this test cannot answer), and `echo` runs without asking anyway.
			fixture
				.replace('  allow: ["command(echo *)"]\n', '')
				.replace(
					'permissions:\n',
					'permissions:\n  command_sandbox: allow-unsandboxed\n  command_network: true\n',
				),
		);
	});

	after(async () => {
		delete process.env['MASSGEN_BWRAP_PATH'];
		rmSync(config, { force: true });
		await vscode.workspace.getConfiguration().update(setting, undefined, vscode.ConfigurationTarget.Global);
	});

	it('run_command stays off without bubblewrap, the user setting opts in, and the network stays off', async () => {
		process.env['MASSGEN_BWRAP_PATH'] = '/nonexistent/bwrap';
		const off = await runTeam(api, 'Run echo (workspace config opts out)');
		assert.equal(off.run.result.status, 'completed', off.run.result.error ?? undefined);
		assert.equal(off.run.state.commandSandbox?.mode, 'off');
		assert.ok(off.result?.type === 'tool-result' && off.result.isError, 'the tool was not offered');

		await vscode.workspace.getConfiguration().update(setting, true, vscode.ConfigurationTarget.Global);
		const unsandboxed = await runTeam(api, 'Run echo (user opted in)');
		assert.equal(unsandboxed.run.state.commandSandbox?.mode, 'none');
		assert.equal(unsandboxed.run.state.commandSandbox?.network, false);
		assert.ok(
			unsandboxed.result?.type === 'tool-result' && unsandboxed.result.text.includes('ran-in-the-copy'),
		);

		delete process.env['MASSGEN_BWRAP_PATH'];
		const walled = await runTeam(api, 'Run echo (sandboxed)');
		assert.deepEqual(
			[walled.run.state.commandSandbox?.mode, walled.run.state.commandSandbox?.network],
			['bubblewrap', false],
		);
	});
});
