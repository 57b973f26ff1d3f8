/**
 * Which workspace folder a run works on (docs/editor.md; multi-root): each run works on one folder on
 * disk, with that folder's `.massgen/` (config, runs). Without asking: the folder of the file in
 * question, else of the active editor, else the only one; with several and no hint the user picks.
 */
import { existsSync } from 'node:fs';
import * as vscode from 'vscode';
import { runDirOf } from '../../contract/runLayout.js';
import { isSafeRunId } from '../../contract/runId.js';

/** The workspace's folders on disk, in their order. */
export function fileFolders(): readonly vscode.WorkspaceFolder[] {
	return (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file');
}

/** The folder on disk that holds `uri`, if any. */
export function folderOf(uri: vscode.Uri | undefined): vscode.WorkspaceFolder | undefined {
	const folder = uri && vscode.workspace.getWorkspaceFolder(uri);
	return folder?.uri.scheme === 'file' ? folder : undefined;
}

/** The folder whose `.massgen/runs/` has `runId`. */
export function folderOfRun(runId: string): vscode.WorkspaceFolder | undefined {
	if (!isSafeRunId(runId)) return undefined;
	return fileFolders().find((folder) => existsSync(runDirOf(folder.uri.fsPath, runId)));
}

/** The folder at `fsPath` (a run's recorded workspace root), if it is one of the workspace's. */
export function folderAt(fsPath: string | undefined): vscode.WorkspaceFolder | undefined {
	return fsPath ? fileFolders().find((folder) => folder.uri.fsPath === fsPath) : undefined;
}

/** The folder a run works on when nobody need be asked; undefined when several could be meant. */
export function implicitFolder(hint?: vscode.Uri): vscode.WorkspaceFolder | undefined {
	const folders = fileFolders();
	if (folders.length <= 1) return folders[0];
	return folderOf(hint) ?? folderOf(vscode.window.activeTextEditor?.document.uri);
}

/** For what lists or reads without running (the panel's past runs, # completion): never asks. */
export function defaultFolder(): vscode.WorkspaceFolder | undefined {
	return implicitFolder() ?? fileFolders()[0];
}

/**
 * The folder for a new run: implicit, else the user picks one. `none`: no folder is open;
 * undefined: the user dismissed the pick.
 */
export async function chooseRunFolder(
	hint?: vscode.Uri,
): Promise<vscode.WorkspaceFolder | 'none' | undefined> {
	if (fileFolders().length === 0) return 'none';
	const implicit = implicitFolder(hint);
	if (implicit) return implicit;
	const items = fileFolders().map((folder) => ({
		label: folder.name,
		description: folder.uri.fsPath,
		folder,
	}));
	const picked = await vscode.window.showQuickPick(items, {
		title: vscode.l10n.t('MassGen: Which Folder?'),
		placeHolder: vscode.l10n.t(
			'The team works on one folder of the workspace (its .massgen/ config and runs)',
		),
		ignoreFocusOut: true,
	});
	return picked?.folder;
}
