import * as vscode from 'vscode';
import { Disposable } from '../common/lifecycle.js';
import { teamFolder } from './teamFolder.js';
import { readFolderTeam, type TeamRead, type TeamSource } from './readFolderTeam.js';
import { teamItem, teamNodes, type TeamNode } from './teamTree.js';
import { memberChatModels } from '../lm/memberChatModels.js';

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

	private _readTeam(): Promise<TeamRead> {
		return readFolderTeam(this._source, teamFolder(), memberChatModels);
	}
}
