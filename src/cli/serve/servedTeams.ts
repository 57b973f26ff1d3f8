/**
 * The teams `massgen serve` offers as models: the one a run in the workspace would use (the core's
 * rule, `chooseTeamConfig`: `--config`, else the workspace's `.massgen/config.yaml`, else the
 * default team) and the scripted demo team (no key, no network). Read at each request, so a config
 * written while the server runs is offered at once.
 */
import { basename, extname, join } from 'node:path';
import { chooseTeamConfig } from '../../core/team/chooseTeamConfig.js';
import { cliNamedConfig } from '../cliHost.js';
import { shippedConfigsDir } from '../shippedFiles.js';

export interface ServedTeam {
	/** `massgen/<name>`: `default`, `workspace`, `demo` or the `--config` file's name. */
	readonly id: string;
	/**
	 * The file the run is given as the user's `--config`; undefined: the rule chooses at run time
	 * (the workspace's own config stays subject to folder trust, the default team to what is available).
	 */
	readonly configFile: string | undefined;
}

export async function servedTeams(root: string, config: string | undefined): Promise<ServedTeam[]> {
	const shipped = shippedConfigsDir();
	const choice = await chooseTeamConfig({
		workspaceRoot: root,
		shippedConfigsDir: shipped,
		trusted: true,
		named: cliNamedConfig(config),
	});
	const teams: ServedTeam[] = [];
	if (choice.ok) {
		const named = choice.kind === 'setting' || choice.kind === 'preset';
		const name = named ? basename(choice.file, extname(choice.file)) : choice.kind;
		teams.push({ id: `massgen/${name}`, configFile: named ? choice.file : undefined });
	}
	const demo = { id: 'massgen/demo', configFile: join(shipped, 'demo.yaml') };
	return teams.some((team) => team.id === demo.id) ? teams : [...teams, demo];
}
