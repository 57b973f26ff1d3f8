// In-host: the team's panel in the side bar view (`massgen.teamPanel`) of the extension itself:
// Focus Ask Box reveals it and its page's ask box takes the keyboard, the view's message path
// validates what its page says, and Open in Editor shows the run the view shows in a tab.
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import { commandIds, viewTypes } from '../../src/vscode/common/commandIds';
import type { MassGenApi } from '../../src/vscode/extensionApi';
import type { MassGenApprovalsApi } from '../../src/vscode/approvals/registerApprovals';
import { requestScreenshot } from './harness';
import { endRunAndConfig, until, useConfig } from './hostWaits';

const extensionId = 'massgen.massgen-vscode';

function editorTabs(): vscode.Tab[] {
	return vscode.window.tabGroups.all
		.flatMap((group) => group.tabs)
		.filter(
			(tab) => tab.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith(viewTypes.panel),
		);
}

describe('The team’s panel in the side bar (in VS Code)', function () {
	this.timeout(60_000);
	let api: MassGenApi & { readonly approvals: MassGenApprovalsApi };
	let fixtures: string;

	before(async () => {
		const extension = vscode.extensions.getExtension<MassGenApi & { approvals: MassGenApprovalsApi }>(
			extensionId,
		);
		assert.ok(extension);
		api = await extension.activate();
		fixtures = join(extension.extensionPath, 'test', 'fixtures', 'vscode');
	});

	afterEach(async () => {
		await endRunAndConfig(api);
	});

	after(async () => {
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
	});

	it('Focus Ask Box from an editor: the view shows and its ask box has the keyboard; back in the editor, it does not', async () => {
		const document = await vscode.workspace.openTextDocument({ content: 'const a = 1;\n' });
		await vscode.window.showTextDocument(document);
		await vscode.commands.executeCommand(commandIds.focusAskBox);
		await until('the view’s page to report the focus', () => api.panelSurfaces().view.focused, 15_000);
		assert.equal(api.panelSurfaces().view.visible, true);
		assert.equal(editorTabs().length, 0, 'the view, not an editor tab');
		await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
		await until('the focus to leave the view', () => !api.panelSurfaces().view.focused);
	});

	it('the view’s messages are validated: a hostile open-run or focus changes nothing, a valid open-run shows that run; Open in Editor shows the same run', async () => {
		await useConfig(join(fixtures, 'team.yaml'));
		const first = await api.runs.start({ question: 'Which run does the tab show?', kind: 'ask' });
		assert.equal(first?.result.status, 'completed', first?.result.error);
		const second = await api.runs.start({ question: 'A later run', kind: 'ask' });
		assert.equal(second?.result.status, 'completed', second?.result.error);
		await until(
			'the view to show the later run',
			() => api.panelSurfaces().view.runId === second!.result.runId,
		);

		for (const hostile of [
			{ type: 'open-run', runId: '../../../etc' },
			{ type: 'open-run', runId: first!.result.runId, extra: 1 },
			{ type: 'focus', focused: 'yes' },
			{ type: 'open-in-editor' },
		]) {
			await api.approvals.postFromPanel(hostile);
		}
		assert.equal(api.panelSurfaces().view.runId, second!.result.runId);
		assert.equal(api.panelSurfaces().editor.open, false);

		await api.approvals.postFromPanel({ type: 'open-run', runId: first!.result.runId });
		assert.equal(api.panelSurfaces().view.runId, first!.result.runId);

		await vscode.commands.executeCommand(commandIds.openInEditor);
		await until('the editor tab', () => editorTabs().length === 1);
		assert.equal(api.panelSurfaces().editor.runId, first!.result.runId);
		await until('the tab’s ask box with the keyboard', () => api.panelSurfaces().editor.focused, 15_000);
		await requestScreenshot('in-host-team-panel-open-in-editor');
		// Run again: one tab, revealed, still the same run.
		await vscode.commands.executeCommand(commandIds.openInEditor);
		assert.equal(editorTabs().length, 1);
		assert.equal(api.panelSurfaces().editor.runId, first!.result.runId);
		assert.ok(await vscode.window.tabGroups.close(editorTabs()[0]!));
		await until('the tab to close', () => !api.panelSurfaces().editor.open);
		assert.equal(api.panelSurfaces().view.runId, first!.result.runId, 'the view still shows it');
	});
});
