import type * as vscode from 'vscode';
import type { RunToolInputs } from '../../core/run/runTools.js';
import { readAllowUnsandboxed, settingLevels } from '../common/settings.js';
import { type EditorToolSettings, toEditorToolSettings } from './permissionSettings.js';

/**
 * `allowUnsandboxedCommands`: where no OS sandbox can start, run commands without one. Only the
 * user's own settings count: a workspace cannot lower the wall.
 */
export type RunToolSettings = EditorToolSettings & Required<Pick<RunToolInputs, 'allowUnsandboxedCommands'>>;

/** The permission, MCP and command settings for a run in `folder` (user, workspace and folder levels). */
export function readToolSettings(folder: vscode.Uri | undefined, trusted: boolean): RunToolSettings {
	const settings = toEditorToolSettings((key) => settingLevels(key, folder), trusted);
	return { ...settings, allowUnsandboxedCommands: readAllowUnsandboxed() };
}
