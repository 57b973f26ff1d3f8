import { dirname, resolve } from 'node:path';
import type { NamedConfig } from '../../core/team/chooseTeamConfig.js';
import { isRootOrInside } from '../../core/util/paths.js';

/**
 * A team config for one run only (`RunRequest.team`), whatever `massgen.config` names: a shipped
 * preset (`configs/<name>.yaml`) or a YAML file the user picked (Ask Several Teams).
 */
export interface RunTeam {
	/** Absolute path of the team YAML. */
	readonly file: string;
}

/**
 * The run's team as the file the core's `chooseTeamConfig` judges: a file directly in the shipped
 * `configs/` folder is the extension's own (used whoever names it); a file inside any folder of the
 * window is the workspace's (untrusted: not used; trusted: its programs need the folder's consent,
 * as for `.massgen/config.yaml`) — in a multi-root window the teams are listed from one folder
 * while the run may go in another, and a repository's config must not pass as the user's there;
 * any other path is the user's, as if `massgen.config` named it.
 */
export function runTeamConfig(
	team: RunTeam,
	shippedConfigsDir: string,
	workspaceRoots: readonly string[],
): NamedConfig {
	const file = resolve(team.file);
	if (dirname(file) === resolve(shippedConfigsDir)) return { file, preset: true };
	if (workspaceRoots.some((root) => isRootOrInside(root, file))) return { file, byWorkspace: true };
	return { file };
}
