import type { ApiKeySources } from '../config/apiKeys.js';
import type { AgentConfig } from '../config/schema.js';
import { type ConfigLoadResult, loadConfigFile } from '../config/loadConfig.js';
import {
	chooseTeamConfig,
	type TeamConfigChoice,
	type TeamConfigInputs,
	type TeamConfigKind,
} from './chooseTeamConfig.js';
import { type HostModels, resolveTeam, type TeamResolution } from './resolveTeam.js';

export interface LoadTeamInputs extends TeamConfigInputs {
	/** The key sources a run would use (`core/run/runKeys.ts`). */
	readonly keys: ApiKeySources;
	/** The host's models (the editor's `vscode_lm`). */
	readonly host?: HostModels;
	/** Members added for this run only (`RunRequest.addedAgents`). */
	readonly added?: readonly AgentConfig[];
}

export type LoadedTeam =
	/** The named file does not exist (`chooseTeamConfig`): nothing was loaded. */
	| { readonly ok: false; readonly file: string }
	| {
			readonly ok: true;
			readonly choice: Extract<TeamConfigChoice, { ok: true }>;
			/** The file as read, whatever the resolution says (the Team view lists every agent in it). */
			readonly loaded: ConfigLoadResult;
			readonly resolution: TeamResolution<TeamConfigKind>;
	  };

/**
 * The team step every shell shares (`prepareRun`, `massgen trust`, the editor's Team view):
 * which config (`chooseTeamConfig`, on the host's answers: the file the user named, Workspace
 * Trust), the file as loaded, and the team resolved against the keys and the host's models, so
 * what a view shows or a trust listing covers is what a run would use.
 */
export async function loadTeam(inputs: LoadTeamInputs): Promise<LoadedTeam> {
	const choice = await chooseTeamConfig(inputs);
	if (!choice.ok) return choice;
	const loaded = await loadConfigFile(choice.file);
	const resolution = await resolveTeam({
		file: choice.file,
		kind: choice.kind,
		keys: inputs.keys,
		loaded,
		...(inputs.host ? { host: inputs.host } : {}),
		...(inputs.added?.length ? { added: inputs.added } : {}),
	});
	return { ok: true, choice, loaded, resolution };
}
