import * as vscode from 'vscode';
import type { PastRunSummary } from '../../contract/pastRunSummary.js';
import { errorMessage } from '../../core/util/errorMessage.js';
import type { AttachmentChip } from '../../protocol/attachmentChip.js';
import type { ApprovalDecision, HostMessage, SwitcherRun } from '../../protocol/messages.js';
import type { ParseResult } from '../../protocol/webviewMessageSchema.js';
import type { ShownQuestions } from '../common/shownQuestions.js';
import { Disposable } from '../common/lifecycle.js';
import type { SessionSecrets } from '../common/log.js';
import { readChangeOutcomes } from './changeOutcomes.js';
import { ContextSearchSlot } from './contextSearchSlot.js';
import { dispatchWebviewMessage, type PanelActions } from './dispatchWebviewMessage.js';
import { panelActions } from './panelActions.js';
import { webviewStrings } from './panelStrings.js';
import { SurfaceWebview } from './surfaceWebview.js';
import { ShownRun } from './shownRun.js';
import { SwitcherFeed, switcherRuns } from './runSwitcher.js';
import type { WebviewSurface } from './webviewSurface.js';
import type { RunController } from '../run/runController.js';
import type { ChangeActions } from '../run/runTypes.js';
import type { PlanProgressSource } from '../plans/planProgress.js';

export interface SurfaceHostDeps {
	readonly extensionUri: vscode.Uri;
	readonly log: vscode.LogOutputChannel;
	readonly runs: RunController;
	/** The change review: open diff, accept, reject, hunk selection and the change-set view. */
	readonly changes: ChangeActions;
	/** Remembers the run shown last, so a reloaded window shows it again. */
	readonly memento: vscode.Memento;
	/** Every message to the webview passes through them (live events are redacted already; past runs, change sets and late errors too). */
	readonly secrets?: SessionSecrets;
	/** The ask box's "+": the context picker (chips to add; undefined when the user cancelled). */
	readonly pickContext?: () => Promise<readonly AttachmentChip[] | undefined>;
	/** Where the link question is recorded when asked (the in-host tests read it). */
	readonly questions?: ShownQuestions;
	/** Execute Plan's progress, posted as `plan-progress` (absent: none is shown). */
	readonly plans?: PlanProgressSource;
	/** An approval card's answer (validated; the request may no longer wait: its receiver checks). */
	readonly answerApproval: (requestId: string, decision: ApprovalDecision, note: string | undefined) => void;
}

/** What differs between the side bar view and an editor tab. */
export interface SurfaceOptions {
	/** Remembers the run shown last for a reload (the view; an editor tab keeps its run in its webview state). */
	readonly memento: vscode.Memento;
	/** The switcher's rows were posted (the one `shown` names the run on the page: an editor tab's title). */
	readonly onDidPostRuns?: (rows: readonly SwitcherRun[]) => void;
	/** The surface is gone (an editor tab closed: its host goes with it; the run goes on). */
	readonly onClosed?: () => void;
}

/**
 * The run webview on one surface — the side bar view or the editor tab (`PanelHost` has one of
 * each): ready → snapshot → live event batches (docs/editor.md), the same messages, validation and
 * restore on both. The webview keeps no state the host cannot rebuild: a reloaded webview gets its
 * snapshot from the current run or, failing that, from the last run's `events.jsonl`.
 *
 * Wires what owns the state: the page and its gate (`SurfaceWebview`), the run it shows
 * (`ShownRun`), `#` completion (`ContextSearchSlot`), and what each message does (`panelActions`).
 */
export class SurfaceHost extends Disposable {
	private readonly _webview: SurfaceWebview;
	private readonly _shown: ShownRun;
	private readonly _search: ContextSearchSlot;
	private readonly _actions: PanelActions;
	private readonly _switcher: SwitcherFeed;
	private _parse: Promise<(raw: unknown) => ParseResult> | undefined;

	constructor(
		private readonly _deps: SurfaceHostDeps,
		private readonly _options: SurfaceOptions = { memento: _deps.memento },
	) {
		super();
		const options = _options;
		const { runs, log } = _deps;
		this._shown = new ShownRun(runs, options.memento, log);
		this._search = this._register(new ContextSearchSlot(log));
		this._webview = this._register(
			new SurfaceWebview({
				extensionUri: _deps.extensionUri,
				log,
				...(_deps.secrets ? { secrets: _deps.secrets } : {}),
				onMessage: (raw) => void this._onMessage(raw),
				onClosed: () => {
					this._shown.showLive();
					this._search.dispose();
					options.onClosed?.();
				},
			}),
		);
		this._switcher = this._register(
			new SwitcherFeed(
				runs,
				() =>
					switcherRuns(runs.active(), { runId: this.shownRunId, state: this._shown.current() }, (runId) =>
						_deps.changes.pendingRunIds().includes(runId),
					),
				(rows) => {
					this._webview.post({ type: 'live-runs', runs: rows });
					options.onDidPostRuns?.(rows);
				},
			),
		);
		const actions = panelActions({
			..._deps,
			panel: {
				snapshot: () => this._postSnapshot(),
				openRun: (runId) => this.openRun(runId),
				post: (message) => this._webview.post(message),
				showAsked: (runId) => this._showStarted(runId),
				shownRunId: () => this.shownRunId,
				folder: () => this._shown.folder(),
				search: () => {
					const folder = this._shown.folder();
					return folder && this._webview.surface ? this._search.for(folder) : undefined;
				},
				answerApproval: _deps.answerApproval,
				closeGate: () => this._webview.closeGate(),
				outcomesChanged: () => this._postOutcomes(),
			},
		});
		this._actions = { ...actions, focus: (focused) => this._webview.surface?.reportFocus(focused) };
		this._register(
			// Only the shown run's change set: another run's finishing or changing leaves the panel as it is.
			_deps.changes.onDidChangeChangeSet(({ runId, changeSet }) => {
				if (runId !== this.shownRunId) return;
				this._webview.post({ type: 'change-set', changeSet });
				void this._postOutcomes();
				this._switcher.changed();
			}),
		);
		// A new run is shown live unless the page shows another run that still goes: a run started
		// elsewhere (a command, Chat, a tool, another surface's box) does not take the page from it;
		// the switcher lists it. A run asked in this page's box is shown here (`showAsked`).
		this._register(
			runs.onDidStartRun(({ runId }) => {
				const shown = this._shown.viewing ? undefined : this._shown.runId;
				const going = shown !== undefined && runs.active().some((run) => run.runId === shown);
				if (shown === runId || !going) this._showStarted(runId);
			}),
		);
		this._register(
			runs.onDidEmitEvents((batch) => {
				// Another run's events stay off this page (each run keeps its own state).
				if (!this._shown.showsLive(batch.runId)) return;
				void this._shown.remember(batch.runId);
				this._webview.post({ type: 'events', events: batch.events });
			}),
		);
		this._register(runs.onDidFinishRun(() => void this._postRuns()));
		const plans = _deps.plans;
		if (plans) this._register(plans.onDidChange(() => this._webview.post(this._planProgress())));
	}

	/** The surface rendered into; undefined before it is resolved or opened, and after it closed. */
	get surface(): WebviewSurface | undefined {
		return this._webview.surface;
	}

	get visible(): boolean {
		return this._webview.surface?.visible ?? false;
	}

	/** Visible and holding the keyboard focus. */
	get focused(): boolean {
		return this._webview.surface?.focused ?? false;
	}

	/** The run shown (also the one restored after a reload): its follow-ups continue that run's session. */
	get shownRunId(): string | undefined {
		return this._shown.runId;
	}

	/** Renders into `surface` (a view resolved, an editor tab opened or restored after a reload). */
	attach(surface: WebviewSurface): void {
		this._webview.attach(surface);
	}

	/** A message as if the webview had posted it (validated and dispatched the same way; in-host tests). */
	receive(raw: unknown): Promise<void> {
		return this._onMessage(raw);
	}

	/**
	 * Posts once the webview has its snapshot (a surface opened just now gets it after the
	 * snapshot); false when the surface went first.
	 */
	async postWhenReady(message: HostMessage, what: string): Promise<boolean> {
		if (!(await this._webview.whenReady())) {
			this._deps.log.warn(`${what}: the panel closed before it was ready`);
			return false;
		}
		this._webview.post(message);
		return true;
	}

	/** A reloaded editor tab: shows the run its webview state names (unreadable: logged, nothing shown). */
	async restore(runId: string): Promise<void> {
		if ((await this._shown.open(runId)) === 'unreadable') {
			this._deps.log.warn(`panel: the restored tab's run ${runId} has no readable events.jsonl`);
			return;
		}
		await this._postSnapshot();
	}

	/** Shows `runId` (the live run, or a past run read back from its `events.jsonl`). */
	async openRun(runId: string): Promise<void> {
		const shown = await this._shown.open(runId);
		if (shown === 'unreadable') {
			// The run id only in the log: the message says what went wrong in words.
			this._deps.log.warn(`panel: run ${runId} has no readable events.jsonl`);
			void vscode.window.showErrorMessage(
				vscode.l10n.t('MassGen: that run cannot be shown: its event log is missing or unreadable.'),
			);
			return;
		}
		await this._postSnapshot();
		await this._shown.remember(runId);
	}

	/** A run that just started is shown live (its batches reset the page: a run's first is `run-start`). */
	private _showStarted(runId: string): void {
		this._shown.showLive(runId);
		this._switcher.changed();
	}

	private async _onMessage(raw: unknown): Promise<void> {
		try {
			const parse = await (this._parse ??= import('../../protocol/webviewMessageSchema.js').then(
				(m) => m.parseWebviewMessage,
			));
			await dispatchWebviewMessage(raw, parse, this._actions, this._deps.log);
		} catch (error) {
			this._deps.log.error(`panel: ${errorMessage(error)}`);
		}
	}

	/**
	 * Posts the whole state, then lets live batches through. The state is read after the last
	 * await: a batch that arrived meanwhile is in it (and was not posted), so the webview neither
	 * misses events nor has them overwritten by an older snapshot.
	 */
	private async _postSnapshot(): Promise<void> {
		const runs = await this._pastRuns();
		const fallback = await this._shown.lastShown();
		const state = this._shown.current() ?? fallback ?? null;
		const liveRuns = this._switcher.take();
		this._options.onDidPostRuns?.(liveRuns);
		this._webview.deliverSnapshot(() => {
			this._webview.post({ type: 'snapshot', state, runs, liveRuns, strings: webviewStrings(vscode) });
			const runId = state?.runId;
			this._webview.post({
				type: 'change-set',
				changeSet: runId ? this._deps.changes.changeSet(runId) : null,
			});
			if (this._deps.plans) this._webview.post(this._planProgress());
		});
		await this._postOutcomes();
	}

	/** What became of the shown run's files (accepted, rejected…), from its record; nothing when it has none. */
	private async _postOutcomes(): Promise<void> {
		const runId = this._shown.runId;
		const root = this._shown.folder()?.uri.fsPath;
		if (!runId || !root) return;
		try {
			const outcomes = await readChangeOutcomes(root, runId);
			if (outcomes.files.length > 0 && this._shown.runId === runId) {
				this._webview.post({ type: 'change-outcomes', ...outcomes });
			}
		} catch (error) {
			this._deps.log.warn(`panel: cannot read what became of run ${runId}'s changes: ${errorMessage(error)}`);
		}
	}

	private _planProgress(): HostMessage {
		return { type: 'plan-progress', plans: this._deps.plans?.views() ?? [] };
	}

	private async _postRuns(): Promise<void> {
		this._webview.post({ type: 'runs', runs: await this._pastRuns() });
	}

	private async _pastRuns(): Promise<PastRunSummary[]> {
		const root = this._shown.folder()?.uri.fsPath;
		if (!root) return [];
		try {
			// The run store's readers check with zod: loaded at the first list, not at activation.
			const { listRuns } = await import('../../core/runStore/listRuns.js');
			return await listRuns(root);
		} catch (error) {
			this._deps.log.warn(`panel: cannot list runs: ${errorMessage(error)}`);
			return [];
		}
	}
}
