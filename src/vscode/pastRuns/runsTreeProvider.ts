import * as vscode from 'vscode';
import { errorMessage } from '../../core/util/errorMessage.js';
import { commandIds } from '../common/commandIds.js';
import { Disposable } from '../common/lifecycle.js';
import { noFilter, type RunsFilter } from './runsFilter.js';
import { runsListing } from '../../core/runStore/runsListing.js';
import type { LiveRunNode } from './liveRunRows.js';
import { buildRunsTree, childrenOf, lookOf, type FolderSessions, type RunsNode } from './runsTreeModel.js';
import type { SessionPins } from './sessionPins.js';

const collapsed = {
	none: vscode.TreeItemCollapsibleState.None,
	collapsed: vscode.TreeItemCollapsibleState.Collapsed,
	expanded: vscode.TreeItemCollapsibleState.Expanded,
} as const;

/**
 * The Runs view's data: every workspace folder's sessions, read again from `.massgen/runs/` on
 * each refresh (the run directories are the only store), filtered and shaped by `runsTreeModel`.
 */
export class RunsTreeProvider extends Disposable implements vscode.TreeDataProvider<RunsNode> {
	private readonly _onDidChangeTreeData = this._register(new vscode.EventEmitter<void>());
	readonly onDidChangeTreeData = this._onDidChangeTreeData.event;
	private _filter: RunsFilter = noFilter;
	private _folders: Promise<FolderSessions[]> | undefined;
	private _listing: string | undefined;
	/** Expanded at first sight: the session with the latest turn. */
	private _newestSessionId: string | undefined;

	constructor(
		private readonly _pins: SessionPins,
		private readonly _log: vscode.LogOutputChannel,
		private readonly _now: () => Date = () => new Date(),
		/** The window's live rows, given the run ids the history lists (`LiveRuns.rows`); none by default. */
		private readonly _live: (inHistory: ReadonlySet<string>) => readonly LiveRunNode[] = () => [],
	) {
		super();
	}

	get filter(): RunsFilter {
		return this._filter;
	}

	set filter(filter: RunsFilter) {
		this._filter = filter;
		this._onDidChangeTreeData.fire();
	}

	/** The live rows changed: the tree is drawn again from the runs as last read (nothing is read from disk). */
	liveChanged(): void {
		this._onDidChangeTreeData.fire();
	}

	/** Reads the run directories again at the next `getChildren`. */
	refresh(): void {
		this._folders = undefined;
		this._onDidChangeTreeData.fire();
	}

	/** The runs folders' listing (`runsListing`) taken just before the tree was last read; undefined before. */
	get listingAtRead(): string | undefined {
		return this._folders === undefined ? undefined : this._listing;
	}

	/** Every folder's sessions, unfiltered, as last read (read now if not yet). */
	folders(): Promise<FolderSessions[]> {
		return (this._folders ??= this._read());
	}

	async getChildren(node?: RunsNode): Promise<RunsNode[]> {
		const folders = await this.folders();
		const inHistory = new Set(folders.flatMap((f) => f.sessions.flatMap((s) => s.turns.map((t) => t.runId))));
		const top = buildRunsTree(folders, this._filter, (id) => this._pins.has(id), this._live(inHistory));
		return [...childrenOf(node, top)];
	}

	getTreeItem(node: RunsNode): vscode.TreeItem {
		const look = lookOf(node, this._now(), this._newestSessionId);
		const item = new vscode.TreeItem(look.label, collapsed[look.collapsed]);
		item.id = node.id;
		item.description = look.description;
		item.tooltip = new vscode.MarkdownString(look.tooltip);
		item.iconPath = new vscode.ThemeIcon(
			look.icon,
			look.color ? new vscode.ThemeColor(look.color) : undefined,
		);
		item.contextValue = look.contextValue;
		if (node.kind === 'turn' || (node.kind === 'live' && node.runId)) {
			item.command = {
				command: commandIds.runsOpen,
				title: vscode.l10n.t('Open in Panel'),
				arguments: [node],
			};
		}
		return item;
	}

	private async _read(): Promise<FolderSessions[]> {
		const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
		// Not at activation: the session reader brings the change record's schema (zod).
		const { readSessions } = await import('../../core/sessions/readSessions.js');
		// Taken first: a run that ends while the sessions are read differs from it, and is read again.
		this._listing = await runsListing(folders.map((folder) => folder.uri.fsPath));
		const read = await Promise.all(
			folders.map(async (folder): Promise<FolderSessions> => {
				const root = folder.uri.fsPath;
				try {
					const { sessions, skipped } = await readSessions(root);
					for (const skip of skipped) this._log.debug(`runs view: ${skip.runId} left out: ${skip.reason}`);
					return { name: folder.name, root, sessions };
				} catch (error) {
					this._log.warn(`runs view: cannot read the runs of ${root}: ${errorMessage(error)}`);
					return { name: folder.name, root, sessions: [] };
				}
			}),
		);
		this._newestSessionId = read
			.flatMap((folder) => folder.sessions.slice(0, 1))
			.sort((a, b) => b.turns.at(-1)!.startedAt.localeCompare(a.turns.at(-1)!.startedAt))[0]?.id;
		return read;
	}
}
