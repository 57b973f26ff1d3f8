import * as vscode from 'vscode';
import { isAbsolute, join, resolve } from 'node:path';
import { chooseConfigFile } from '../../core/team/chooseConfigFile.js';
import { isRootOrInside } from '../../core/util/paths.js';

/**
 * Which team config a run uses (docs/editor.md) — pure, so the order and the Workspace Trust rule are
 * unit-tested: the `massgen.config` setting, else the core's `chooseConfigFile` rule
 * (`<workspace>/.massgen/config.yaml`, else the shipped default team). In an untrusted workspace
 * no config file inside the workspace is used (it could later start processes: MCP servers,
 * commands); the default team is used instead and the notes say why.
 */

/** `preset:<name>` in the setting names a shipped config in `configs/` (survives extension updates). */
export const presetPrefix = 'preset:';

export interface TeamConfigInputs {
	/** The `massgen.config` setting, `''` when unset. */
	readonly setting: string;
	/** The setting's value came from the workspace's or folder's settings (`configSettingFromWorkspace`). */
	readonly settingFromWorkspace?: boolean;
	readonly workspaceRoot: string;
	/** The extension's `configs/` folder. */
	readonly shippedDir: string;
	readonly trusted: boolean;
	readonly home: string;
	readonly exists: (path: string) => Promise<boolean>;
}

/** `workspace`: the workspace's own choice, `.massgen/config.yaml` or a path its settings name. */
export type TeamConfigKind = 'setting' | 'preset' | 'workspace' | 'default';

export type TeamConfigChoice =
	| {
			readonly ok: true;
			readonly kind: TeamConfigKind;
			readonly file: string;
			/** Human-readable remarks for the log and the user (why a config was skipped). */
			readonly notes: readonly string[];
	  }
	| {
			readonly ok: false;
			readonly file: string;
			readonly message: string;
			readonly notes: readonly string[];
	  };

export async function chooseTeamConfig(inputs: TeamConfigInputs): Promise<TeamConfigChoice> {
	const notes: string[] = [];
	const setting = inputs.setting.trim();
	let explicit: { file: string; kind: 'setting' | 'preset' } | undefined;
	if (setting) {
		const { file, kind } = settingPath(setting, inputs);
		if (!inputs.trusted && inputs.settingFromWorkspace && kind !== 'preset') {
			// VS Code drops a restricted setting's workspace value in Restricted Mode; this holds without it.
			notes.push(
				vscode.l10n.t(
					'The workspace is not trusted, so the team config its settings name (massgen.config: {0}) is not used. Trust the workspace to use it.',
					setting,
				),
			);
		} else if (!inputs.trusted && isRootOrInside(inputs.workspaceRoot, file)) {
			notes.push(
				vscode.l10n.t(
					'The workspace is not trusted, so the team config from the massgen.config setting ({0}) is not used because it lies inside the workspace. Trust the workspace to use it.',
					setting,
				),
			);
		} else if (!(await inputs.exists(file))) {
			return {
				ok: false,
				file,
				notes,
				message: vscode.l10n.t('The massgen.config setting points to {0}, which does not exist.', file),
			};
		} else {
			explicit = { file, kind };
		}
	}
	const { trusted, exists } = inputs;
	const choice = await chooseConfigFile(inputs.workspaceRoot, inputs.shippedDir, explicit?.file, {
		trusted,
		exists,
	});
	if (choice.skippedUntrusted) {
		notes.push(
			vscode.l10n.t(
				'The workspace is not trusted, so its team config (.massgen/config.yaml) is not used. Trust the workspace to use it.',
			),
		);
	}
	// A path the workspace's settings name is its choice wherever it lies: its programs and key
	// hosts need the same consent as `.massgen/config.yaml`'s (core `chosenByWorkspace`).
	const named = explicit?.kind === 'setting' && inputs.settingFromWorkspace ? 'workspace' : explicit?.kind;
	const kind = choice.kind === 'explicit' ? named! : choice.kind;
	return { ok: true, kind, file: choice.file, notes };
}

function settingPath(
	setting: string,
	inputs: TeamConfigInputs,
): { file: string; kind: 'setting' | 'preset' } {
	if (setting.startsWith(presetPrefix)) {
		const name = setting.slice(presetPrefix.length).trim();
		const file = /\.ya?ml$/i.test(name) ? name : `${name}.yaml`;
		// A preset is a bare file name in configs/; anything else is treated as a path.
		if (/^[\w.-]+$/.test(file)) return { file: join(inputs.shippedDir, file), kind: 'preset' };
	}
	let path = setting.replace(/\$\{workspaceFolder\}/g, inputs.workspaceRoot);
	if (path === '~' || path.startsWith('~/')) path = join(inputs.home, path.slice(1));
	return { file: isAbsolute(path) ? resolve(path) : resolve(inputs.workspaceRoot, path), kind: 'setting' };
}
