import * as vscode from 'vscode';
import { errorMessage } from '../../core/util/errorMessage.js';
import { missingConfigMessage, readNamedConfig } from '../config/teamConfigSetting.js';
import { Disposable } from '../common/lifecycle.js';
import type { Engine } from '../run/loadEngine.js';
import type { KeyStore } from '../common/secrets.js';
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
 * The Team view's data: the team Ask Team would run now, chosen and resolved as a run does (the
 * engine's `runKeys` and the core's `loadTeam` on the `massgen.config` setting), read again on refresh.
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
			const engine = await this._source.engine();
			const keys = await engine.runKeys(root, {
				storedKeys: () => this._source.keys.getAll(),
				env: process.env,
				workspaceTrusted: trusted,
			});
			const read = await engine.team.readTeamSnapshot({
				workspaceRoot: root,
				shippedConfigsDir: this._source.shippedConfigsDir,
				trusted,
				named: readNamedConfig(folder.uri, this._source.shippedConfigsDir).named,
				keys,
				lmModels: async () => vscode.lm.selectChatModels(),
			});
			return 'missing' in read ? { message: missingConfigMessage(read.missing) } : { snapshot: read };
		} catch (error) {
			this._source.log.error(`Team view: ${errorMessage(error)}`);
			return { message: vscode.l10n.t('The team could not be read: {0}', errorMessage(error)) };
		}
	}
}
