// In-host: which command sandbox a run uses in the real extension host (Node 20), and the
// `massgen.commands.allowUnsandboxed` user setting. The extension reads the host's live
// environment per run, so setting MASSGEN_BWRAP_PATH here makes bubblewrap unavailable.
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { after, afterEach, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import { detectSandbox } from '../../src/core/exec/sandbox/detectSandbox';
import { ripgrepInEditor } from '../../src/core/util/ripgrepBinary';
import type { MassGenApi } from '../../src/vscode/extensionApi';
import { runTeam } from './hostWaits';

const extensionId = 'massgen.massgen-vscode';
const setting = 'massgen.commands.allowUnsandboxed';

describe('Command sandbox (in VS Code)', function () {
	this.timeout(120_000);
	let api: MassGenApi;

	before(async () => {
		const extension = vscode.extensions.getExtension<MassGenApi>(extensionId);
		assert.ok(extension);
		api = await extension.activate();
		const config = join(extension.extensionPath, 'test', 'fixtures', 'vscode', 'command-sandbox.yaml');
		await vscode.workspace
			.getConfiguration()
			.update('massgen.config', config, vscode.ConfigurationTarget.Global);
	});

	after(async () => {
		await vscode.workspace
			.getConfiguration()
			.update('massgen.config', undefined, vscode.ConfigurationTarget.Global);
	});

	const path = process.env['PATH'];
	afterEach(async () => {
		process.env['PATH'] = path;
		delete process.env['MASSGEN_BWRAP_PATH'];
		await vscode.workspace.getConfiguration().update(setting, undefined, vscode.ConfigurationTarget.Global);
	});

	it('without bubblewrap, run_command is off (the panel state says why); the user setting opts in to running unsandboxed', async () => {
		process.env['MASSGEN_BWRAP_PATH'] = '/nonexistent/bwrap';
		const off = await runTeam(api, 'Run echo (no sandbox)');
		assert.equal(off.run.result.status, 'completed', off.run.result.error ?? undefined);
		assert.equal(off.run.state.commandSandbox?.mode, 'off');
		assert.match(
			off.run.state.commandSandbox?.notice ?? '',
			/bubblewrap is not installed .*massgen\.commands\.allowUnsandboxed/,
		);
		assert.ok(off.result?.type === 'tool-result' && off.result.isError, 'the tool was not offered');

		await vscode.workspace.getConfiguration().update(setting, true, vscode.ConfigurationTarget.Global);
		const unsandboxed = await runTeam(api, 'Run echo (opted in)');
		assert.equal(unsandboxed.run.state.commandSandbox?.mode, 'none');
		assert.ok(
			unsandboxed.result?.type === 'tool-result' &&
				!unsandboxed.result.isError &&
				unsandboxed.result.text.includes('ran-in-the-copy'),
			JSON.stringify(unsandboxed.result),
		);

		// With bubblewrap back, the setting changes nothing: the sandbox is used.
		delete process.env['MASSGEN_BWRAP_PATH'];
		const walled = await runTeam(api, 'Run echo (sandboxed)');
		assert.equal(walled.run.state.commandSandbox?.mode, 'bubblewrap');
		assert.ok(walled.result?.type === 'tool-result' && walled.result.text.includes('ran-in-the-copy'));
	});

	it('with no rg on PATH, the scratch is listed with the ripgrep VS Code ships: commands run in the overlay', async () => {
		const bundled = ripgrepInEditor(vscode.env.appRoot);
		assert.ok(
			bundled !== null && bundled.startsWith(vscode.env.appRoot),
			`no ripgrep under ${vscode.env.appRoot}`,
		);
		const bwrap = (path ?? '')
			.split(delimiter)
			.map((folder) => join(folder, 'bwrap'))
			.find(existsSync);
		assert.ok(bwrap, 'bubblewrap is installed');
		// Where this machine can mount an overlay at all (the CI machine can), only a ripgrep makes the run use it.
		const { sandbox } = await detectSandbox({ bwrapPath: bwrap });
		process.env['MASSGEN_BWRAP_PATH'] = bwrap;
		process.env['PATH'] = '/nonexistent-massgen-bin';
		const walled = await runTeam(api, 'Run echo (overlay)');
		assert.equal(walled.run.state.commandSandbox?.mode, 'bubblewrap');
		assert.equal(walled.run.state.commandSandbox?.scratch, sandbox?.overlay ? 'overlay' : 'copy');
		assert.ok(walled.result?.type === 'tool-result' && walled.result.text.includes('ran-in-the-copy'));
	});
});
