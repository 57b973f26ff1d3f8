// In-host: a run's secrets never reach the panel's state or the run directory, and the
// massgen.secretPaths setting refuses a file (docs/threat-model.md).
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import { commandIds } from '../../src/vscode/common/commandIds';
import type { MassGenApi } from '../../src/vscode/extensionApi';
import type { FinishedRun } from '../../src/vscode/run/runTypes';

const key = 'sk-test-INHOST-0123456789abcdef';

describe('Secrets (in VS Code)', function () {
	this.timeout(60_000);
	let api: MassGenApi;
	let fixtures: string;

	before(async () => {
		const extension = vscode.extensions.getExtension<MassGenApi>('massgen.massgen-vscode');
		assert.ok(extension);
		api = await extension.activate();
		fixtures = join(extension.extensionPath, 'test', 'fixtures', 'vscode');
		const settings = vscode.workspace.getConfiguration();
		await settings.update(
			'massgen.config',
			join(fixtures, 'secrets-team.yaml'),
			vscode.ConfigurationTarget.Global,
		);
		await settings.update('massgen.secretPaths', ['hello.ts'], vscode.ConfigurationTarget.Global);
	});

	after(async () => {
		const settings = vscode.workspace.getConfiguration();
		await settings.update('massgen.config', undefined, vscode.ConfigurationTarget.Global);
		await settings.update('massgen.secretPaths', undefined, vscode.ConfigurationTarget.Global);
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
	});

	it('the panel state and run directory show [redacted]; a massgen.secretPaths file is refused', async () => {
		const run = await vscode.commands.executeCommand<FinishedRun | undefined>(
			commandIds.askTeam,
			'What is the key?',
		);
		assert.ok(run, 'the run finished');
		assert.equal(run.result.status, 'completed', run.result.error);
		const state = JSON.stringify(api.lastState());
		assert.ok(!state.includes(key), 'the panel state holds the key');
		assert.match(state, /answer with \[redacted\]/);
		// The presentation streamed in 7 chunks: the key straddled two of them.
		assert.match(state, /final: \[redacted\]/);
		assert.match(state, /'hello\.ts' is a secret path \(matches 'hello\.ts'\)/);
		for (const name of readdirSync(run.runDir)) {
			assert.ok(!readFileSync(join(run.runDir, name), 'utf8').includes(key), `${name} holds the key`);
		}
	});
});
