// In-host: the Team view reads the team again by itself when what it shows changes: the
// massgen.config setting, a team file saved in an editor (outside the workspace, so no watcher),
// and the workspace's .massgen/config.yaml written by another program (the file watcher).
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import type { MassGenApi } from '../../src/vscode/extensionApi';
import type { TeamNode } from '../../src/vscode/team/teamTree';
import { useConfig, workspaceRoot } from './hostWaits';

const team = (id: string) => `agents:\n  - id: ${id}\n    backend: { type: grok, model: grok-4 }\n`;

describe('Team view refresh (in VS Code)', function () {
	this.timeout(90_000);
	let api: MassGenApi;
	let dir: string;
	const workspaceTeam = () => join(workspaceRoot(), '.massgen', 'config.yaml');
	const backup = () => `${workspaceTeam()}.refresh-test`;

	/** The agents the view shows now: what it read last, unless it was refreshed since. */
	const shown = async () =>
		((await api.teamView.provider.getChildren()) as TeamNode[]).flatMap((n) =>
			n.kind === 'agent' ? [n.row.id] : [],
		);
	/** The view's next own refresh (never the test's: it never calls refresh()). */
	const nextRefresh = () =>
		new Promise<void>((resolve, reject) => {
			const timer = setTimeout(() => {
				listener.dispose();
				reject(new Error('the Team view did not refresh within 20 s'));
			}, 20_000);
			const listener = api.teamView.provider.onDidChangeTreeData(() => {
				clearTimeout(timer);
				listener.dispose();
				resolve();
			});
		});
	/** Refreshes until the view shows `ids`; a refresh that came from an earlier change is skipped. */
	const showsAfterRefresh = async (ids: string[]) => {
		for (let refreshes = 0; refreshes < 10; refreshes++) {
			if (JSON.stringify(await shown()) === JSON.stringify(ids)) return;
			await nextRefresh();
		}
		assert.deepEqual(await shown(), ids);
	};

	before(async () => {
		const extension = vscode.extensions.getExtension<MassGenApi>('massgen.massgen-vscode');
		assert.ok(extension);
		api = await extension.activate();
		dir = mkdtempSync(join(tmpdir(), 'massgen-team-refresh-'));
		mkdirSync(join(workspaceRoot(), '.massgen'), { recursive: true });
		if (existsSync(workspaceTeam())) renameSync(workspaceTeam(), backup());
	});

	after(async () => {
		await useConfig(undefined);
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
		rmSync(workspaceTeam(), { force: true });
		if (existsSync(backup())) renameSync(backup(), workspaceTeam());
		rmSync(dir, { recursive: true, force: true });
	});

	it('the setting, a team file saved in an editor, the workspace team written on disk: each refreshes it', async () => {
		const first = join(dir, 'first.yaml');
		const second = join(dir, 'second.yaml');
		writeFileSync(first, team('alpha'));
		writeFileSync(second, team('beta'));
		await useConfig(first);
		await showsAfterRefresh(['alpha']);

		// The setting changes: the view reads the other team (what it shows is cached until then).
		assert.deepEqual(await shown(), ['alpha']);
		await useConfig(second);
		await showsAfterRefresh(['beta']);

		// The team file edited and saved in an editor.
		const document = await vscode.workspace.openTextDocument(second);
		const edit = new vscode.WorkspaceEdit();
		edit.replace(document.uri, new vscode.Range(0, 0, document.lineCount, 0), team('gamma'));
		assert.ok(await vscode.workspace.applyEdit(edit));
		assert.deepEqual(await shown(), ['beta']);
		await document.save();
		await showsAfterRefresh(['gamma']);

		// No setting: the workspace's .massgen/config.yaml, then that file rewritten by another program.
		writeFileSync(workspaceTeam(), team('delta'));
		await useConfig(undefined);
		await showsAfterRefresh(['delta']);
		writeFileSync(workspaceTeam(), team('epsilon'));
		await showsAfterRefresh(['epsilon']);
	});
});
