import * as vscode from 'vscode';
import { type EditorToolSettings, type PermissionSettingKey, toEditorToolSettings } from './permissionSettings';

/** The permission and MCP settings for a run in `folder` (user, workspace and folder levels). */
export function readToolSettings(folder: vscode.Uri | undefined, trusted: boolean): EditorToolSettings {
	const configuration = vscode.workspace.getConfiguration(undefined, folder);
	return toEditorToolSettings((key: PermissionSettingKey) => configuration.inspect(key), trusted);
}
