import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import * as vscode from 'vscode';
import type { NamedConfig, SkippedConfig } from '../../core/team/chooseTeamConfig.js';
import { configSettingFromWorkspace, readConfigSetting } from '../common/settings.js';

/**
 * The editor's answer to "which team config did the user name": the `massgen.config` setting as
 * a file (docs/editor.md). The core's `chooseTeamConfig` decides whether it is used (Workspace
 * Trust), else `<workspace>/.massgen/config.yaml`, else the shipped default team; this file says
 * its decisions in the user's language.
 */

/** `preset:<name>` in the setting names a shipped config in `configs/` (survives extension updates). */
export const presetPrefix = 'preset:';

export interface ConfigSettingInputs {
	/** The `massgen.config` setting, `''` when unset. */
	readonly setting: string;
	/** The setting's value came from the workspace's or folder's settings (`configSettingFromWorkspace`). */
	readonly settingFromWorkspace?: boolean;
	readonly workspaceRoot: string;
	/** The extension's `configs/` folder. */
	readonly shippedDir: string;
	readonly home: string;
}

/** The setting as the file it names: `preset:<name>`, `${workspaceFolder}`, `~`, relative to the folder. */
export function settingNamedConfig(inputs: ConfigSettingInputs): NamedConfig | undefined {
	const setting = inputs.setting.trim();
	if (!setting) return undefined;
	const byWorkspace = inputs.settingFromWorkspace === true;
	if (setting.startsWith(presetPrefix)) {
		const name = setting.slice(presetPrefix.length).trim();
		const file = /\.ya?ml$/i.test(name) ? name : `${name}.yaml`;
		// A preset is a bare file name in configs/; anything else is treated as a path.
		if (/^[\w.-]+$/.test(file)) return { file: join(inputs.shippedDir, file), preset: true, byWorkspace };
	}
	let path = setting.replace(/\$\{workspaceFolder\}/g, inputs.workspaceRoot);
	if (path === '~' || path.startsWith('~/')) path = join(inputs.home, path.slice(1));
	const file = isAbsolute(path) ? resolve(path) : resolve(inputs.workspaceRoot, path);
	return { file, byWorkspace };
}

/** The folder's `massgen.config` now, as the file it names, and as written (for the notes). */
export function readNamedConfig(
	folder: vscode.Uri,
	shippedDir: string,
): { readonly named: NamedConfig | undefined; readonly setting: string } {
	const setting = readConfigSetting(folder);
	const named = settingNamedConfig({
		setting,
		settingFromWorkspace: configSettingFromWorkspace(folder),
		workspaceRoot: folder.fsPath,
		shippedDir,
		home: homedir(),
	});
	return { named, setting };
}

/** Why each config the core left out was not used (`setting`: the setting as written). */
export function skippedConfigNotes(skipped: readonly SkippedConfig[], setting: string): string[] {
	return skipped.map((why) => {
		switch (why) {
			case 'workspace-setting':
				return vscode.l10n.t(
					'The workspace is not trusted, so the team config its settings name (massgen.config: {0}) is not used. Trust the workspace to use it.',
					setting,
				);
			case 'inside-workspace':
				return vscode.l10n.t(
					'The workspace is not trusted, so the team config from the massgen.config setting ({0}) is not used because it lies inside the workspace. Trust the workspace to use it.',
					setting,
				);
			case 'workspace-config':
				return vscode.l10n.t(
					'The workspace is not trusted, so its team config (.massgen/config.yaml) is not used. Trust the workspace to use it.',
				);
		}
	});
}

/** A named config that does not exist (the core reports it rather than falling back). */
export function missingConfigMessage(file: string): string {
	return vscode.l10n.t('The massgen.config setting points to {0}, which does not exist.', file);
}
