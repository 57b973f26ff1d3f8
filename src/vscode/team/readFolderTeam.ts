import * as vscode from 'vscode';
import type { NamedConfig } from '../../core/team/chooseTeamConfig.js';
import { errorMessage } from '../../core/util/errorMessage.js';
import { missingConfigMessage, readNamedConfig } from '../config/teamConfigSetting.js';
import type { KeyStore } from '../common/secrets.js';
import type { LmModels } from '../run/vscodeLmModels.js';
import type { Engine } from '../run/loadEngine.js';
import type { TeamSnapshot } from './teamSnapshot.js';

export interface TeamSource {
	readonly engine: () => Promise<Engine>;
	readonly keys: Pick<KeyStore, 'getAll'>;
	readonly shippedConfigsDir: string;
	readonly log: vscode.LogOutputChannel;
}

export interface TeamRead {
	readonly snapshot?: TeamSnapshot;
	/** Why there is no snapshot (no folder, a missing setting file, the engine failed). */
	readonly message?: string;
}

/**
 * The team a run in `folder` would use now, chosen and resolved as the run does (the engine's
 * `runKeys` and the core's `loadTeam` on the `massgen.config` setting, or on `named`: a shipped
 * team the run is given, as `RunRequest.preset` gives it). The Team view and the model picker's
 * teams read it here.
 */
export async function readFolderTeam(
	source: TeamSource,
	folder: vscode.WorkspaceFolder | undefined,
	lmModels: LmModels,
	named?: NamedConfig,
): Promise<TeamRead> {
	if (!folder) return { message: vscode.l10n.t('Open a folder: a team works on a workspace folder.') };
	const root = folder.uri.fsPath;
	const trusted = vscode.workspace.isTrusted;
	try {
		const engine = await source.engine();
		const keys = await engine.runKeys(root, {
			storedKeys: () => source.keys.getAll(),
			env: process.env,
			workspaceTrusted: trusted,
		});
		const read = await engine.team.readTeamSnapshot({
			workspaceRoot: root,
			shippedConfigsDir: source.shippedConfigsDir,
			trusted,
			named: named ?? readNamedConfig(folder.uri, source.shippedConfigsDir).named,
			keys,
			lmModels,
		});
		return 'missing' in read ? { message: missingConfigMessage(read.missing) } : { snapshot: read };
	} catch (error) {
		source.log.error(`team: ${errorMessage(error)}`);
		return { message: vscode.l10n.t('The team could not be read: {0}', errorMessage(error)) };
	}
}
