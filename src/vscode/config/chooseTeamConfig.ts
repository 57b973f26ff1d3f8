import { isAbsolute, join, relative, resolve } from 'node:path';

/**
 * Which team config a run uses (DESIGN §9) — pure, so the order and the Workspace Trust rule are
 * unit-tested: the `massgen.config` setting, else `<workspace>/.massgen/config.yaml`, else the
 * shipped default team. In an untrusted workspace no config file inside the workspace is used
 * (it could later start processes: MCP servers, commands); the default team is used instead and
 * the notes say why.
 */

/** `preset:<name>` in the setting names a shipped config in `configs/` (survives extension updates). */
export const presetPrefix = 'preset:';

export interface TeamConfigInputs {
	/** The `massgen.config` setting, `''` when unset. */
	readonly setting: string;
	readonly workspaceRoot: string;
	/** The extension's `configs/` folder. */
	readonly shippedDir: string;
	readonly trusted: boolean;
	readonly home: string;
	readonly exists: (path: string) => Promise<boolean>;
}

export type TeamConfigKind = 'setting' | 'preset' | 'workspace' | 'default';

export type TeamConfigChoice =
	| {
			readonly ok: true;
			readonly kind: TeamConfigKind;
			readonly file: string;
			/** Human-readable remarks for the log and the user (why a config was skipped). */
			readonly notes: readonly string[];
	  }
	| { readonly ok: false; readonly file: string; readonly message: string; readonly notes: readonly string[] };

export async function chooseTeamConfig(inputs: TeamConfigInputs): Promise<TeamConfigChoice> {
	const notes: string[] = [];
	const setting = inputs.setting.trim();
	if (setting) {
		const { file, kind } = settingPath(setting, inputs);
		if (!inputs.trusted && isInside(file, inputs.workspaceRoot)) {
			notes.push(
				`The workspace is not trusted, so the team config from the massgen.config setting (${setting}) ` +
					'is not used because it lies inside the workspace. Trust the workspace to use it.',
			);
		} else if (!(await inputs.exists(file))) {
			return {
				ok: false,
				file,
				notes,
				message: `The massgen.config setting points to ${file}, which does not exist.`,
			};
		} else {
			return { ok: true, kind, file, notes };
		}
	}
	const inWorkspace = join(inputs.workspaceRoot, '.massgen', 'config.yaml');
	if (await inputs.exists(inWorkspace)) {
		if (inputs.trusted) return { ok: true, kind: 'workspace', file: inWorkspace, notes };
		notes.push(
			'The workspace is not trusted, so its team config (.massgen/config.yaml) is not used. ' +
				'Trust the workspace to use it.',
		);
	}
	return { ok: true, kind: 'default', file: join(inputs.shippedDir, 'default.yaml'), notes };
}

function settingPath(setting: string, inputs: TeamConfigInputs): { file: string; kind: 'setting' | 'preset' } {
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

/** True when `file` is `root` or below it. */
export function isInside(file: string, root: string): boolean {
	const rel = relative(resolve(root), resolve(file));
	return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}
