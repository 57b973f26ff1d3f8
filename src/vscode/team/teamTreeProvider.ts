import { homedir } from 'node:os';
import * as vscode from 'vscode';
import { errorMessage } from '../../core/util/errorMessage.js';
import { pathExists } from '../../core/util/pathExists.js';
import { chooseTeamConfig } from '../config/chooseTeamConfig.js';
import { Disposable } from '../common/lifecycle.js';
import type { Engine } from '../run/loadEngine.js';
import type { KeyStore } from '../common/secrets.js';
import { configSettingFromWorkspace, readConfigSetting } from '../common/settings.js';
import { teamFolder } from './teamFolder.js';
import type { TeamSnapshot } from './teamSnapshot.js';
import { teamItem, teamNodes, type TeamNode } from './teamTree.js';

export interface TeamSource {
	readonly engine: () => Promise<Engine>;
	readonly keys: Pick<KeyStore, 'getAll'>;
	readonly shippedConfigsDir: string;
	readonly log: vscode.LogOutputChannel;
}

interface TeamRead {
	readonly snapshot?: TeamSnapshot;
	/** Why there is no snapshot (no folder, a missing setting file, the engine failed). */
	readonly message?: string;
}

/**
 * The Team view's data: the team Ask Team would run now, chosen and resolved as a run does
 * (`chooseTeamConfig`, the engine's `runKeys`, the engine's `resolveTeam`), read again on refresh.
 */
export class TeamTreeProvider extends Disposable implements vscode.TreeDataProvider<TeamNode> {
	private readonly _onDidChangeTreeData = this._register(new vscode.EventEmitter<void>());
	readonly onDidChangeTreeData = this._onDidChangeTreeData.event;
	private _read: Promise<TeamRead> | undefined;

	constructor(private readonly _source: TeamSource) {
		super();
	}

	refresh(): void {
		this._read = undefined;
		this._onDidChangeTreeData.fire();
	}

	/** The team as last read (read now if not yet); undefined with a message when there is none. */
	async snapshot(): Promise<TeamRead> {
		return (this._read ??= this._readTeam());
	}

	getTreeItem(node: TeamNode): vscode.TreeItem {
		return teamItem(node);
	}

	async getChildren(node?: TeamNode): Promise<TeamNode[]> {
		if (node) return [];
		const read = await this.snapshot();
		return teamNodes(read.snapshot, read.message);
	}

	private async _readTeam(): Promise<TeamRead> {
		const folder = teamFolder();
		if (!folder) return { message: vscode.l10n.t('Open a folder: a team works on a workspace folder.') };
		const root = folder.uri.fsPath;
		const trusted = vscode.workspace.isTrusted;
		try {
			const choice = await chooseTeamConfig({
				setting: readConfigSetting(folder.uri),
				settingFromWorkspace: configSettingFromWorkspace(folder.uri),
				workspaceRoot: root,
				shippedDir: this._source.shippedConfigsDir,
				trusted,
				home: homedir(),
				exists: pathExists,
			});
			if (!choice.ok) return { message: choice.message };
			const engine = await this._source.engine();
			const keys = await engine.runKeys(root, {
				storedKeys: () => this._source.keys.getAll(),
				env: process.env,
				workspaceTrusted: trusted,
			});
			const snapshot = await engine.team.readTeamSnapshot({
				file: choice.file,
				kind: choice.kind,
				keys,
				lmModels: async () => vscode.lm.selectChatModels(),
			});
			return { snapshot };
		} catch (error) {
			this._source.log.error(`Team view: ${errorMessage(error)}`);
			return { message: vscode.l10n.t('The team could not be read: {0}', errorMessage(error)) };
		}
	}
}
