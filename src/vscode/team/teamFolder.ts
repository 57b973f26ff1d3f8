import * as vscode from 'vscode';

/**
 * The folder whose team the view shows and the builder writes to: the active editor's folder,
 * else the first folder on disk (what a run without a choice takes).
 */
export function teamFolder(): vscode.WorkspaceFolder | undefined {
	const active = vscode.window.activeTextEditor?.document.uri;
	const folder = active && vscode.workspace.getWorkspaceFolder(active);
	if (folder?.uri.scheme === 'file') return folder;
	return vscode.workspace.workspaceFolders?.find((candidate) => candidate.uri.scheme === 'file');
}
