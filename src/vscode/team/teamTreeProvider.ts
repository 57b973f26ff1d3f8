import * as vscode from 'vscode';
import type { Leaderboard } from '../../core/stats/leaderboard.js';
import { errorMessage } from '../../core/util/errorMessage.js';
import { Disposable } from '../common/lifecycle.js';
import { teamFolder } from './teamFolder.js';
import { readFolderTeam, type TeamRead, type TeamSource } from './readFolderTeam.js';
import { teamItem, teamNodes, type TeamNode } from './teamTree.js';
import { statsChildren, type StatsNode } from './statsTree.js';
import { memberChatModels } from '../lm/memberChatModels.js';

/** The leaderboard of a folder's runs (`TeamStats.board`). */
export type BoardSource = (root: string) => Promise<Leaderboard>;

/**
 * The Team view's data: the team Ask Team would run now, chosen and resolved as a run does (the
 * engine's `runKeys` and the core's `loadTeam` on the `massgen.config` setting), read again on
 * refresh; then the Stats row over the leaderboard of the folder's runs, read again on
 * `refreshStats` (a run ended, a change was accepted) without reading the team again.
 */
export class TeamTreeProvider extends Disposable implements vscode.TreeDataProvider<TeamNode> {
	private readonly _onDidChangeTreeData = this._register(new vscode.EventEmitter<void>());
	readonly onDidChangeTreeData = this._onDidChangeTreeData.event;
	/** The team was read again (not only the stats): what the model picker's teams follow. */
	private readonly _onDidChangeTeam = this._register(new vscode.EventEmitter<void>());
	readonly onDidChangeTeam = this._onDidChangeTeam.event;
	private _read: Promise<TeamRead> | undefined;
	private _stats: Promise<StatsNode | undefined> | undefined;

	constructor(
		private readonly _source: TeamSource,
		private readonly _board: BoardSource,
	) {
		super();
	}

	refresh(): void {
		this._read = undefined;
		this._stats = undefined;
		this._onDidChangeTreeData.fire();
		this._onDidChangeTeam.fire();
	}

	/** Only the Stats row (a run ended, a change was decided): the team is not read again, nor announced. */
	refreshStats(): void {
		this._stats = undefined;
		this._onDidChangeTreeData.fire();
	}

	/** The team as last read (read now if not yet); undefined with a message when there is none. */
	async snapshot(): Promise<TeamRead> {
		return (this._read ??= this._readTeam());
	}

	/** The Stats row as last read (read now if not yet); undefined without a folder. */
	async stats(): Promise<StatsNode | undefined> {
		return (this._stats ??= this._readStats());
	}

	getTreeItem(node: TeamNode): vscode.TreeItem {
		return teamItem(node);
	}

	async getChildren(node?: TeamNode): Promise<TeamNode[]> {
		if (node) return node.kind === 'stats' ? statsChildren(node.board) : [];
		const [read, stats] = await Promise.all([this.snapshot(), this.stats()]);
		return [...teamNodes(read.snapshot, read.message), ...(stats ? [stats] : [])];
	}

	private _readTeam(): Promise<TeamRead> {
		return readFolderTeam(this._source, teamFolder(), memberChatModels);
	}

	private async _readStats(): Promise<StatsNode | undefined> {
		const folder = teamFolder();
		if (!folder) return undefined;
		try {
			return { kind: 'stats', board: await this._board(folder.uri.fsPath) };
		} catch (error) {
			this._source.log.warn(`stats of ${folder.uri.fsPath}: ${errorMessage(error)}`);
			return { kind: 'stats', board: undefined, error: errorMessage(error) };
		}
	}
}
