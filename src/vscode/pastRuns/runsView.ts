import * as vscode from 'vscode';
import { readRunsKeep } from '../common/settings.js';
import { deleteRuns, planPrune, type RetentionPolicy } from '../../core/runStore/pruneRuns.js';
import { runsWatchGlobs } from '../../contract/runLayout.js';
import { errorMessage } from '../../core/util/errorMessage.js';
import { commandIds, contextKeys, viewIds } from '../common/commandIds.js';
import { Disposable } from '../common/lifecycle.js';
import type { ChangeActions, FinishedRun, RunService } from '../run/runTypes.js';
import { GitignoreOffer } from './gitignoreOffer.js';
import { LiveRunActions, type LiveRunControl } from './liveRunActions.js';
import { type LiveApprovalSource, LiveRuns, type LiveRunSource } from './liveRuns.js';
import { isPending, RunsActions } from './runsActions.js';
import { describeFilter, isFiltering, noFilter, type RunsFilter } from './runsFilter.js';
import { promptRunsFilter } from './runsFilterPrompt.js';
import { runsListing } from '../../core/runStore/runsListing.js';
import { RunsTreeProvider } from './runsTreeProvider.js';
import { SessionPins } from './sessionPins.js';

export interface RunsViewDeps {
	/** The window's runs (`RunController`): the history's new runs, and the live rows at the top. */
	readonly runs: RunService & LiveRunSource & LiveRunControl;
	/** The approval broker: a run whose requests wait reads "needs approval". */
	readonly approvals: LiveApprovalSource;
	readonly changes: ChangeActions;
	readonly openInPanel: (runId: string) => Promise<void>;
	readonly memento: vscode.Memento;
	readonly log: vscode.LogOutputChannel;
}

type RunsCommandId =
	| typeof commandIds.runsOpen
	| typeof commandIds.runsContinue
	| typeof commandIds.runsFork
	| typeof commandIds.runsRerun
	| typeof commandIds.runsOpenLog
	| typeof commandIds.runsRevealChanges
	| typeof commandIds.runsExport
	| typeof commandIds.runsDelete
	| typeof commandIds.runsPin
	| typeof commandIds.runsUnpin
	| typeof commandIds.runsFilter
	| typeof commandIds.runsClearFilter
	| typeof commandIds.runsRefresh
	| typeof commandIds.runsStop
	| typeof commandIds.runsRemoveQueued
	| typeof commandIds.runsStartNow
	| typeof commandIds.runsMoveUp
	| typeof commandIds.runsMoveDown
	| typeof commandIds.runsReviewChanges;

/** How long the view waits for more run ends before reading the runs again. */
const refreshDelayMs = 300;
/** How often the view checks the runs folders' listing (`runsListing`). */
const listingLookMs = 3_000;

/**
 * The Runs view in the MassGen Activity Bar container: the window's live runs at the top
 * (`LiveRuns`: going, queued, needing an approval, changes to review), then sessions → turns from
 * every folder's `.massgen/runs/`, refreshed when a run ends (the controller, or a `result.json`
 * written by the CLI) and when the change set's outcome changes; retention (`massgen.runs.keep`)
 * after each run and at activation. The view's badge counts the runs that need the user.
 */
export class RunsView extends Disposable {
	readonly provider: RunsTreeProvider;
	readonly view: vscode.TreeView<unknown>;
	readonly live: LiveRuns;
	private readonly _pins: SessionPins;
	private readonly _actions: RunsActions;
	private readonly _liveActions: LiveRunActions;
	private readonly _gitignore: GitignoreOffer;
	private _timer: ReturnType<typeof setTimeout> | undefined;

	constructor(private readonly _deps: RunsViewDeps) {
		super();
		this._pins = new SessionPins(_deps.memento);
		this._gitignore = new GitignoreOffer(_deps.memento);
		this.live = this._register(
			new LiveRuns(_deps.runs, _deps.approvals, {
				// Every run with a pending change set has changes to review.
				pendingRunIds: () => _deps.changes.pendingRunIds(),
				onDidChange: _deps.changes.onDidChangeChangeSet,
			}),
		);
		this.provider = this._register(
			new RunsTreeProvider(this._pins, _deps.log, undefined, (inHistory) => this.live.rows(inHistory)),
		);
		this.view = this._register(
			vscode.window.createTreeView(viewIds.runs, {
				treeDataProvider: this.provider,
				showCollapseAll: true,
				canSelectMany: true,
			}),
		);
		this._actions = new RunsActions({
			runs: _deps.runs,
			openInPanel: _deps.openInPanel,
			changes: _deps.changes,
			pins: this._pins,
			log: _deps.log,
			refresh: () => this.provider.refresh(),
		});
		this._liveActions = new LiveRunActions(_deps.runs, _deps.log);
		this._register(this.live.onDidChange(() => this._liveChanged()));
		this._liveChanged();
		// A run's end (its result.json), an accept or reject (changes-log.jsonl), and the folders
		// themselves: the first run's `.massgen/runs/<id>/` is created at once, and the recursive
		// watcher then reports only the new folders, not the files a fast run writes into them.
		for (const glob of [runsWatchGlobs.files, runsWatchGlobs.folders]) {
			const watcher = this._register(vscode.workspace.createFileSystemWatcher(glob));
			for (const event of [watcher.onDidCreate, watcher.onDidChange, watcher.onDidDelete]) {
				this._register(event(() => this._scheduleRefresh()));
			}
		}
		// The watcher can miss a run another process (the CLI) writes: it may report only the new
		// folder, before the result.json. A cheap look at the listing every few seconds catches it.
		const looker = setInterval(() => void this._lookAgain(), listingLookMs);
		this._register({ dispose: () => clearInterval(looker) });
		this._register(vscode.workspace.onDidChangeWorkspaceFolders(() => this.provider.refresh()));
		this._register(_deps.changes.onDidChangeChangeSet(() => this._scheduleRefresh()));
		this._register(_deps.runs.onDidFinishRun((run) => void this._afterRun(run)));
		this._register({ dispose: () => clearTimeout(this._timer) });
		void this.prune();
	}

	/** Every Runs view command's handler (`registerCommands` adds them to its record). */
	handlers(): Record<RunsCommandId, (...args: unknown[]) => unknown> {
		const actions = this._actions;
		return {
			[commandIds.runsOpen]: (node) => actions.open(node),
			[commandIds.runsContinue]: (node, question) => actions.continue(node, question),
			[commandIds.runsFork]: (node, question) => actions.fork(node, question),
			[commandIds.runsRerun]: (node) => actions.rerun(node),
			[commandIds.runsOpenLog]: (node) => actions.openLog(node),
			[commandIds.runsRevealChanges]: (node) => actions.revealChanges(node),
			[commandIds.runsExport]: (node) => actions.exportMarkdown(node),
			[commandIds.runsDelete]: (node, selection) => actions.delete(node, selection),
			[commandIds.runsPin]: (node) => actions.pin(node, true),
			[commandIds.runsUnpin]: (node) => actions.pin(node, false),
			[commandIds.runsFilter]: async () => {
				const filter = await promptRunsFilter(this.provider.filter);
				if (filter) this.setFilter(filter);
			},
			[commandIds.runsClearFilter]: () => this.setFilter(noFilter),
			[commandIds.runsRefresh]: () => this.provider.refresh(),
			[commandIds.runsStop]: (node) => this._liveActions.stop(node),
			[commandIds.runsRemoveQueued]: (node) => this._liveActions.stop(node),
			[commandIds.runsStartNow]: (node) => this._liveActions.startNow(node),
			[commandIds.runsMoveUp]: (node) => this._liveActions.move(node, -1),
			[commandIds.runsMoveDown]: (node) => this._liveActions.move(node, 1),
			[commandIds.runsReviewChanges]: (node) => this._liveActions.reviewChanges(node),
		};
	}

	/**
	 * Deletes what `massgen.runs.keep` lets go in every folder: never a run with pending changes
	 * (or the one the change review shows), of a pinned session, or a turn a kept run continues.
	 * Runs that are not readable turns (running, crashed) or came with the folder are not touched.
	 */
	async prune(): Promise<string[]> {
		const deleted: string[] = [];
		for (const folder of vscode.workspace.workspaceFolders ?? []) {
			if (folder.uri.scheme !== 'file') continue;
			const policy = readKeepSetting(folder.uri, this._deps.log);
			if (policy.count === undefined && policy.days === undefined) continue;
			try {
				const { readSessions } = await import('../../core/sessions/readSessions.js');
				const { sessions } = await readSessions(folder.uri.fsPath);
				// Only runs this machine made: a run that came with the folder is the repository's file.
				const candidates = sessions.flatMap((s) =>
					s.turns.filter((turn) => turn.madeHere).map((turn) => ({ ...turn, pending: isPending(turn) })),
				);
				const plan = planPrune(candidates, policy, {
					pinnedSessions: this._pins.all(),
					keepRunIds: new Set(this._deps.changes.pendingRunIds()),
					now: new Date(),
				});
				deleted.push(...(await deleteRuns(folder.uri.fsPath, plan)));
			} catch (error) {
				this._deps.log.warn(`runs: retention in ${folder.uri.fsPath}: ${errorMessage(error)}`);
			}
		}
		if (deleted.length) {
			this._deps.log.info(`runs: massgen.runs.keep deleted ${deleted.join(', ')}`);
			this.provider.refresh();
		}
		return deleted;
	}

	private async _afterRun(run: FinishedRun): Promise<void> {
		this.provider.refresh();
		await this.prune();
		await this._gitignore.maybeOffer(run.folder);
	}

	/** Shows only the turns that pass `filter`; the view's description says what it filters by. */
	setFilter(filter: RunsFilter): void {
		this.provider.filter = filter;
		this.view.description = describeFilter(filter) || undefined;
		void vscode.commands.executeCommand('setContext', contextKeys.runsFiltered, isFiltering(filter));
	}

	/** The live rows or the count of runs needing the user changed: the tree's top and the badge. */
	private _liveChanged(): void {
		this.provider.liveChanged();
		const count = this.live.needsUser();
		this.view.badge =
			count === 0
				? undefined
				: {
						value: count,
						tooltip:
							count === 1
								? vscode.l10n.t('1 run needs you: an approval or changes to review')
								: vscode.l10n.t('{0} runs need you: approvals or changes to review', count),
					};
	}

	private _scheduleRefresh(): void {
		clearTimeout(this._timer);
		this._timer = setTimeout(() => this.provider.refresh(), refreshDelayMs);
	}

	/** Refreshes when the runs folders' listing changed since the tree was read (only once it has been). */
	private async _lookAgain(): Promise<void> {
		const atRead = this.provider.listingAtRead;
		if (atRead === undefined) return;
		const roots = (vscode.workspace.workspaceFolders ?? [])
			.filter((folder) => folder.uri.scheme === 'file')
			.map((folder) => folder.uri.fsPath);
		if ((await runsListing(roots)) !== atRead) this._scheduleRefresh();
	}
}

/** `massgen.runs.keep` for a folder: `{ count?, days? }` of non-negative numbers; anything else is ignored (logged). */
export function readKeepSetting(folder: vscode.Uri, log: { warn(message: string): void }): RetentionPolicy {
	const value = readRunsKeep(folder);
	if (typeof value !== 'object' || value === null) return {};
	const { count, days } = value as Record<string, unknown>;
	const valid = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n) && n >= 0;
	for (const [name, n] of [
		['count', count],
		['days', days],
	] as const) {
		if (n !== undefined && !valid(n)) {
			log.warn(`settings: massgen.runs.keep.${name} is not a number ≥ 0; ignored`);
		}
	}
	return { ...(valid(count) ? { count: Math.floor(count) } : {}), ...(valid(days) ? { days } : {}) };
}
