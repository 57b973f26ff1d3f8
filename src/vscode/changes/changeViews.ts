import * as vscode from 'vscode';
import type { ChangeSetView } from '../../protocol/changeSetView.js';
import { Disposable } from '../common/lifecycle.js';
import type { ChangeSetChange } from '../run/runTypes.js';
import type { AcceptWatch } from './acceptWatch.js';
import { ChangeContexts } from './changeContexts.js';
import { ChangeStatusBar } from './changeStatusBar.js';
import { HunkLenses } from './hunkLenses.js';
import type { PendingChangeSet } from './pendingChangeSet.js';
import type { PendingSets } from './pendingSets.js';

/**
 * Everything that shows the pending sets and follows them on each change (`changed`): the panel's
 * view of a set (with the review loop's comments added by one decorator), the status bar, the
 * diff's hunk lenses and the context keys of the editor-title actions. `ChangeReview` decides
 * what changed; this owns how it is shown, so that file keeps to the review and accept flow.
 */
export class ChangeViews extends Disposable {
	private readonly _onDidChange = this._register(new vscode.EventEmitter<ChangeSetChange>());
	readonly onDidChange = this._onDidChange.event;
	private readonly _contexts: ChangeContexts;
	private readonly _status = this._register(new ChangeStatusBar());
	private readonly _lenses: HunkLenses;
	/** What the last accept did besides writing (merged, conflict markers, left to review), for the status bar. */
	private _acceptDetail = '';
	/** Adds what other parts know to the panel's view of a set (the review loop's comments). */
	private _decorate: (view: ChangeSetView) => ChangeSetView = (view) => view;

	constructor(
		private readonly _sets: PendingSets,
		private readonly _accepts: AcceptWatch,
		/** The run's set as its diffs show it (`ChangeContentProvider.set`), for the hunk lenses. */
		shown: (runId: string) => PendingChangeSet | undefined,
	) {
		super();
		this._contexts = new ChangeContexts(_sets);
		this._lenses = this._register(new HunkLenses(shown));
		this._register(vscode.window.tabGroups.onDidChangeTabs(() => this._contexts.update()));
		this._register(vscode.window.tabGroups.onDidChangeTabGroups(() => this._contexts.update()));
	}

	/** The status bar's text (undefined: hidden), for tests. */
	get statusText(): string | undefined {
		return this._status.text;
	}

	/** The panel's view of a run's set, decorated; null when nothing of it is pending. */
	view(runId: string): ChangeSetView | null {
		const view = this._sets.get(runId)?.view();
		return view ? this._decorate(view) : null;
	}

	decorate(decorate: (view: ChangeSetView) => ChangeSetView): void {
		this._decorate = decorate;
	}

	/** The last accept's detail, shown from the next `changed` on. */
	acceptDone(detail: string): void {
		this._acceptDetail = detail;
	}

	/** A run's view changed outside the change review (its comments): only the panel gets it again. */
	refresh(runId: string): void {
		if (this._sets.get(runId)) this._onDidChange.fire({ runId, changeSet: this.view(runId) });
	}

	/** What a run has pending changed: the status bar, lenses, context keys and the panel follow. */
	changed(runId: string): void {
		this._status.showFor(this._sets.list(), this._accepts.last, this._acceptDetail);
		this._lenses.refresh();
		this._contexts.update();
		this._onDidChange.fire({ runId, changeSet: this.view(runId) });
	}
}
