// In-host tests: run inside the real VS Code extension host (see index.ts for the launchers).
import * as assert from 'node:assert/strict';
import { before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import { commandIds, viewTypes } from '../../src/vscode/commandIds';
import { requestScreenshot } from './harness';

const extensionId = 'massgen.massgen-vscode';

interface ContributedCommand {
	readonly command: string;
	readonly title: string;
	readonly category?: string;
}

function massgenPanelTabs(): vscode.Tab[] {
	return vscode.window.tabGroups.all
		.flatMap((group) => group.tabs)
		.filter((tab) => tab.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith(viewTypes.panel));
}

async function until<T>(what: string, probe: () => T | undefined, timeoutMs = 5_000): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = probe();
		if (value !== undefined) return value;
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
}

describe('MassGen extension (in VS Code)', () => {
	let extension: vscode.Extension<unknown>;

	before(async () => {
		const found = vscode.extensions.getExtension(extensionId);
		assert.ok(found, `${extensionId} is not loaded`);
		extension = found;
		await extension.activate();
	});

	it('activates', () => {
		assert.equal(extension.isActive, true);
	});

	it('registers every contributed command, and contributes every registered massgen command', async () => {
		const contributed = (extension.packageJSON.contributes.commands as ContributedCommand[])
			.map((c) => c.command)
			.sort();
		const registered = (await vscode.commands.getCommands(true)).filter((id) => id.startsWith('massgen.')).sort();
		assert.deepEqual(registered, contributed);
		assert.deepEqual(contributed, Object.values(commandIds).sort());
	});

	it('Show Panel opens one MassGen webview tab, also when run twice', async () => {
		await vscode.commands.executeCommand(commandIds.showPanel);
		const [tab] = await until('the MassGen webview tab', () => {
			const tabs = massgenPanelTabs();
			return tabs.length ? tabs : undefined;
		});
		assert.equal(tab!.label, 'MassGen');
		await requestScreenshot('in-host-show-panel');

		await vscode.commands.executeCommand(commandIds.showPanel);
		await new Promise((resolve) => setTimeout(resolve, 300));
		assert.equal(massgenPanelTabs().length, 1);
	});

	it('commands that are not implemented yet complete without throwing', async () => {
		const pending = Object.values(commandIds).filter((id) => id !== commandIds.showPanel);
		for (const id of pending) await vscode.commands.executeCommand(id);
	});
});
