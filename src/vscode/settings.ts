import * as vscode from 'vscode';
import { settingKeys } from './commandIds.js';

/** Typed access to the extension's settings (house-style §3.6 #8). */

/** `massgen.config` for `folder` ('' when unset). In an untrusted workspace VS Code ignores workspace values of it (restrictedConfigurations). */
export function readConfigSetting(folder?: vscode.Uri): string {
	const value = vscode.workspace.getConfiguration(undefined, folder).get<string>(settingKeys.config);
	return typeof value === 'string' ? value.trim() : '';
}

/**
 * Whether the value `readConfigSetting` returns came from the workspace's or the folder's settings
 * (a repository's `.vscode/settings.json` or `.code-workspace`) rather than the user's: such a
 * config is the workspace's choice wherever the file lies (`chooseTeamConfig`).
 */
export function configSettingFromWorkspace(folder?: vscode.Uri): boolean {
	const levels = vscode.workspace.getConfiguration(undefined, folder).inspect<unknown>(settingKeys.config);
	const set = (value: unknown) => typeof value === 'string' && value.trim() !== '';
	return set(levels?.workspaceFolderValue) || set(levels?.workspaceValue);
}

/** Writes `massgen.config`: in the workspace settings when a folder is open, else for the user. */
export async function writeConfigSetting(value: string | undefined): Promise<void> {
	const target = vscode.workspace.workspaceFolders?.length
		? vscode.ConfigurationTarget.Workspace
		: vscode.ConfigurationTarget.Global;
	await vscode.workspace.getConfiguration().update(settingKeys.config, value || undefined, target);
}

/** The folder a view or command is about when nothing says which (multi-root: see `runFolders.ts`). */
export { defaultFolder as workspaceFolder } from './runFolders.js';
