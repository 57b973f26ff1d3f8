// In-host tests: run inside the real VS Code extension host (see index.ts for the launchers).
import * as assert from 'node:assert/strict';
import { before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import { commandIds, viewTypes } from '../../src/vscode/common/commandIds';
import type { MassGenApi } from '../../src/vscode/extensionApi';
import { requestScreenshot } from './harness';
import { snapshotFiles, workspaceRoot } from './hostWaits';

const extensionId = 'massgen.massgen-vscode';

interface ContributedCommand {
	readonly command: string;
	readonly title: string;
	readonly category?: string;
}

function massgenPanelTabs(): vscode.Tab[] {
	return vscode.window.tabGroups.all
		.flatMap((group) => group.tabs)
		.filter(
			(tab) => tab.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith(viewTypes.panel),
		);
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
	let extension: vscode.Extension<MassGenApi>;

	let wasActive = false;

	before(async () => {
		const found = vscode.extensions.getExtension<MassGenApi>(extensionId);
		assert.ok(found, `${extensionId} is not loaded`);
		extension = found;
		// Nothing activates the extension before this (it activates on its commands and panel only).
		wasActive = extension.isActive;
		const t = performance.now();
		const api = await extension.activate();
		const activationMs = performance.now() - t;
		console.log(
			`activation: ${activationMs.toFixed(1)} ms including loading dist/extension.js (activate() itself: ${api.activationMs.toFixed(1)} ms)${wasActive ? ' [was already active]' : ''}`,
		);
	});

	// How long it takes is `npm run bench:host`'s figure, not a bound here: what keeps it short is
	// that activation never loads the engine bundle.
	it('activates without loading the engine bundle', () => {
		assert.equal(extension.isActive, true);
		if (!wasActive) {
			assert.equal(
				Object.keys(require.cache).find((file) => /[\\/]dist[\\/]engine\.js$/.test(file)),
				undefined,
			);
		}
	});

	it('registers every contributed command, and contributes every registered massgen command', async () => {
		const contributed = (extension.packageJSON.contributes.commands as ContributedCommand[])
			.map((c) => c.command)
			.sort();
		// VS Code registers these for every contributed view (`<view id>.focus` …): not ours to contribute.
		const views = Object.values(
			extension.packageJSON.contributes.views as Record<string, { id: string }[]>,
		).flatMap((list) => list.map((view) => view.id));
		const generated = new Set(
			views.flatMap((view) =>
				['focus', 'open', 'removeView', 'resetViewLocation', 'toggleVisibility'].map(
					(suffix) => `${view}.${suffix}`,
				),
			),
		);
		const registered = (await vscode.commands.getCommands(true))
			// `massgen.runs.open` is ours as well as generated (`<view>.open`, like `massgen.team.open`).
			.filter((id) => id.startsWith('massgen.') && (!generated.has(id) || contributed.includes(id)))
			.sort();
		assert.deepEqual(registered, contributed);
		assert.deepEqual(contributed, Object.values(commandIds).sort());
	});

	it('Show Panel reveals the side bar view (no editor tab) and its ask box takes the keyboard; run twice, still no tab', async () => {
		const api = extension.exports as MassGenApi;
		await vscode.commands.executeCommand(commandIds.showPanel);
		// The page reports its focus once its ask box took it (the host's focus-ask after the snapshot).
		await until(
			'the view with the keyboard',
			() => (api.panelSurfaces().view.focused ? true : undefined),
			15_000,
		);
		assert.equal(api.panelSurfaces().view.visible, true);
		assert.equal(massgenPanelTabs().length, 0, 'no editor tab');
		await requestScreenshot('in-host-show-panel');

		await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
		await until('the view without the keyboard', () => (api.panelSurfaces().view.focused ? undefined : true));
		await vscode.commands.executeCommand(commandIds.showPanel);
		await until('the view with the keyboard again', () =>
			api.panelSurfaces().view.focused ? true : undefined,
		);
		assert.equal(massgenPanelTabs().length, 0);
	});

	it('commands that ask something (input box, quick pick) end quietly when dismissed', async () => {
		const asking = [
			commandIds.askTeam,
			commandIds.setApiKey,
			commandIds.selectTeamConfig,
			commandIds.openRunLog,
		];
		for (const id of asking) {
			const running = vscode.commands.executeCommand(id);
			// The quick input opens asynchronously; keep dismissing until the command has returned.
			let settled = false;
			void running.then(
				() => (settled = true),
				() => (settled = true),
			);
			for (let i = 0; i < 100 && !settled; i++) {
				await new Promise((resolve) => setTimeout(resolve, 50));
				await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
			}
			assert.equal(await running, undefined, id);
		}
	});

	it('the other commands complete without throwing (Cancel Run with no run; the change review ones)', async () => {
		// Reject first: a change set an earlier suite left pending must not be accepted into the workspace here.
		const others = [
			commandIds.cancelRun,
			commandIds.reviewSelection,
			commandIds.rejectChanges,
			commandIds.acceptChanges,
		];
		const root = workspaceRoot();
		const before = snapshotFiles(root);
		for (const id of others) await vscode.commands.executeCommand(id);
		assert.deepEqual(snapshotFiles(root), before);
	});
});
