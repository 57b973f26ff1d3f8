import { join } from 'node:path';
import { isRootOrInside } from '../util/paths.js';
import { pathExists } from '../util/pathExists.js';

/**
 * How a team config was chosen. `setting`: the file the user named (the CLI's `--config`, the
 * editor's `massgen.config` from the user's settings); `preset`: a shipped config named by
 * `preset:<name>`; `workspace`: the workspace's own choice (`.massgen/config.yaml`, or a path the
 * workspace's settings name wherever it lies); `default`: the shipped team, kept to what is available.
 */
export type TeamConfigKind = 'setting' | 'preset' | 'workspace' | 'default';

/** The file the user named, as the host read it (its flag or setting): the rule decides whether it is used. */
export interface NamedConfig {
	/** Absolute. */
	readonly file: string;
	/** A shipped config (`preset:<name>`): the extension's own file, used whoever names it. */
	readonly preset?: boolean;
	/** Named by the workspace's own settings, not the user's: the workspace's choice wherever it lies. */
	readonly byWorkspace?: boolean;
}

/**
 * A config file left out because the workspace is not trusted: the one its settings name
 * (`workspace-setting`), a named file inside the workspace (`inside-workspace`), or its
 * `.massgen/config.yaml` (`workspace-config`). The host says why in its own words.
 */
export type SkippedConfig = 'workspace-setting' | 'inside-workspace' | 'workspace-config';

export type TeamConfigChoice =
	| {
			readonly ok: true;
			readonly kind: TeamConfigKind;
			readonly file: string;
			readonly skipped: readonly SkippedConfig[];
	  }
	/** The named file does not exist: reported, never silently replaced by another team. */
	| { readonly ok: false; readonly file: string };

export interface TeamConfigInputs {
	readonly workspaceRoot: string;
	/** The shipped `configs/` folder (the default team). */
	readonly shippedConfigsDir: string;
	/**
	 * The workspace's own files may act (VS Code's Workspace Trust; the CLI: yes). Untrusted, no
	 * config the workspace chose or holds is used: it could start processes (MCP servers, commands).
	 */
	readonly trusted: boolean;
	readonly named?: NamedConfig | undefined;
	readonly exists?: (path: string) => Promise<boolean>;
}

/**
 * Which team config a run uses, for every shell: the named file (unless the workspace is not
 * trusted and the workspace named it or holds it), else `<workspace>/.massgen/config.yaml` when
 * the workspace is trusted, else the shipped default team.
 */
export async function chooseTeamConfig(inputs: TeamConfigInputs): Promise<TeamConfigChoice> {
	const { named, trusted, workspaceRoot, exists = pathExists } = inputs;
	const skipped: SkippedConfig[] = [];
	if (named && !trusted && named.byWorkspace && !named.preset) {
		// VS Code drops a restricted setting's workspace value in Restricted Mode; this holds without it.
		skipped.push('workspace-setting');
	} else if (named && !trusted && isRootOrInside(workspaceRoot, named.file)) {
		skipped.push('inside-workspace');
	} else if (named) {
		if (!(await exists(named.file))) return { ok: false, file: named.file };
		// A path the workspace's settings name is its choice wherever it lies: its programs and key
		// hosts need the same consent as `.massgen/config.yaml`'s (core `chosenByWorkspace`).
		const kind = named.preset ? 'preset' : named.byWorkspace ? 'workspace' : 'setting';
		return { ok: true, kind, file: named.file, skipped };
	}
	const inWorkspace = join(workspaceRoot, '.massgen', 'config.yaml');
	const found = await exists(inWorkspace);
	if (found && trusted) return { ok: true, kind: 'workspace', file: inWorkspace, skipped };
	if (found) skipped.push('workspace-config');
	return { ok: true, kind: 'default', file: join(inputs.shippedConfigsDir, 'default.yaml'), skipped };
}
