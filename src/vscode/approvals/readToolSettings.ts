import * as vscode from 'vscode';
import type { RunToolInputs } from '../../core/run/runTools.js';
import {
	type EditorToolSettings,
	type PermissionSettingKey,
	toEditorToolSettings,
} from './permissionSettings.js';

/** Setting key (package.json `contributes.configuration`, application scope: user settings only). */
export const allowUnsandboxedKey = 'massgen.commands.allowUnsandboxed';

/**
 * `allowUnsandboxedCommands`: where no OS sandbox can start, run commands without one. Only the
 * user's own settings count: a workspace cannot lower the wall.
 */
export type RunToolSettings = EditorToolSettings & Required<Pick<RunToolInputs, 'allowUnsandboxedCommands'>>;

/** The permission, MCP and command settings for a run in `folder` (user, workspace and folder levels). */
export function readToolSettings(folder: vscode.Uri | undefined, trusted: boolean): RunToolSettings {
	const configuration = vscode.workspace.getConfiguration(undefined, folder);
	const settings = toEditorToolSettings((key: PermissionSettingKey) => configuration.inspect(key), trusted);
	return {
		...settings,
		allowUnsandboxedCommands: configuration.inspect(allowUnsandboxedKey)?.globalValue === true,
	};
}
