import * as vscode from 'vscode';
import type { AttachmentChip } from '../../protocol/attachmentChip.js';
import type { ApprovalDecision } from '../../protocol/messages.js';
import { runIdPattern } from '../../contract/runId.js';
import { viewIds, viewTypes } from '../common/commandIds.js';
import { Disposable } from '../common/lifecycle.js';
import { SurfaceHost, type SurfaceHostDeps } from './surfaceHost.js';
import { editorSurface, viewSurface, type WebviewSurface } from './webviewSurface.js';

export type PanelHostDeps = Omit<SurfaceHostDeps, 'answerApproval'>;

/** An approval card's answer, validated (the request may no longer wait: its receiver checks). */
export interface PanelApprovalAnswer {
	readonly requestId: string;
	readonly decision: ApprovalDecision;
	readonly note: string | undefined;
}

/** What a command that shows the panel asks for. */
export interface ShowOptions {
	/** Leave the keyboard where it is (a run started from elsewhere: a command, Chat, a tool). */
	readonly preserveFocus: boolean;
}

/**
 * The team's panel: its home is the side bar view (`massgen.teamPanel`), with a switcher among the
 * window's runs; "Open in Editor" gives the run shown its own wide editor tab (one tab per run,
 * titled by its question; closing it leaves the run going). One `SurfaceHost` per surface renders
 * the same page with the same messages, validation and restore (docs/editor.md). Commands that
 * show the panel reveal the view and give its ask box the keyboard; a run started from elsewhere
 * shows without taking it.
 */
export class PanelHost extends Disposable {
	/** The side bar view (resolved by VS Code when it first shows: `resolveView`). */
	readonly view: SurfaceHost;
	/** The editor tabs, oldest first ("Open in Editor", or restored after a reload: `revive`). */
	private readonly _editors = new Set<SurfaceHost>();
	private readonly _surfaceDeps: SurfaceHostDeps;
	/** What each editor tab's title names: its run's question (from the switcher's rows). */
	private readonly _names = new Map<SurfaceHost, string>();
	private readonly _onDidAnswerApproval = this._register(new vscode.EventEmitter<PanelApprovalAnswer>());
	/** The approvals (`createApprovals`) take the cards' answers from here. */
	readonly onDidAnswerApproval = this._onDidAnswerApproval.event;
	private _title = 'MassGen';
	private _waiting = 0;

	constructor(private readonly _deps: PanelHostDeps) {
		super();
		const surfaceDeps: SurfaceHostDeps = {
			..._deps,
			answerApproval: (requestId, decision, note) =>
				this._onDidAnswerApproval.fire({ requestId, decision, note }),
		};
		this._surfaceDeps = surfaceDeps;
		this.view = this._register(new SurfaceHost(surfaceDeps));
		this._register({ dispose: () => this._editors.forEach((host) => host.dispose()) });
		this._register(
			// A run comes into view in the side bar (unless an editor tab is in front); showing it
			// never takes the keyboard from the user.
			_deps.runs.onDidStartRun(() => {
				if (!this.editors.some((host) => host.visible)) this._showView({ preserveFocus: true });
			}),
		);
	}

	/** The editor tabs open now, oldest first. */
	get editors(): readonly SurfaceHost[] {
		return [...this._editors];
	}

	/** The editor tab with the keyboard, else the newest one; undefined when none is open. */
	get editor(): SurfaceHost | undefined {
		const editors = this.editors;
		return editors.find((host) => host.focused) ?? editors.at(-1);
	}

	/** A surface is visible. */
	get visible(): boolean {
		return this.view.visible || this.editors.some((host) => host.visible);
	}

	/** A surface has the keyboard focus. */
	get focused(): boolean {
		return this.view.focused || this.editors.some((host) => host.focused);
	}

	/** The editor tab's title; `MassGen (1 waiting)` stands in for a badge while approvals wait. */
	get title(): string {
		return this._title;
	}

	/** The approvals waiting: the editor tab's title (`title`) and the view's badge say it. */
	setWaiting(title: string, count: number): void {
		this._title = title;
		this._waiting = count;
		this.view.surface?.setWaiting(title, count);
		for (const host of this._editors) this._retitle(host);
	}

	/** The run the side bar view shows (also the one restored after a reload): its follow-ups continue that run's session. */
	get shownRunId(): string | undefined {
		return this.view.shownRunId;
	}

	/** VS Code resolved the side bar view (it became visible for the first time, or again after it was removed). */
	resolveView(view: vscode.WebviewView): void {
		this._attach(this.view, viewSurface(view));
		this._deps.log.info('view resolved');
	}

	/**
	 * Called by the serializer when VS Code restores an editor tab after a reload: `state` is its
	 * webview's saved state (`ViewStateStore`), whose `runId` names the run the tab showed. A second
	 * tab of one run is closed.
	 */
	async revive(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
		const saved = (state as { runId?: unknown } | undefined)?.runId;
		const runId = typeof saved === 'string' && runIdPattern.test(saved) ? saved : undefined;
		if (runId && this._editorOf(runId)) {
			panel.dispose();
			return;
		}
		const host = this._attachEditor(panel);
		this._deps.log.info(`editor tab restored${runId ? ` (run ${runId})` : ''}`);
		if (runId) await host.restore(runId);
	}

	/** A message as if the view's webview had posted it (validated and dispatched the same way; in-host tests). */
	receive(raw: unknown): Promise<void> {
		return this.view.receive(raw);
	}

	/**
	 * Shows the panel (Show Panel, a run): reveals the side bar view; without `preserveFocus` its
	 * ask box gets the keyboard.
	 */
	show(options: ShowOptions): void {
		this._showView(options);
		if (!options.preserveFocus) void this.view.postWhenReady({ type: 'focus-ask' }, 'focus');
	}

	/** Focus Ask Box: the ask box of the surface the user is in (an editor tab), else the view's. */
	focusAskBox(): void {
		const host = this._target();
		if (host !== this.view) host.surface?.reveal(false);
		else this._showView({ preserveFocus: false });
		void host.postWhenReady({ type: 'focus-ask' }, 'focus');
	}

	/**
	 * Open in Editor: the run's own wide editor tab (`runId`, else the run the surface the user is
	 * in shows), its ask box focused. A run with a tab already: that tab comes to the front.
	 */
	async openInEditor(runId = this._target().shownRunId): Promise<void> {
		const open = this._editorOf(runId);
		if (open) {
			open.surface?.reveal(false);
		} else {
			const host = this._openEditorTab();
			if (runId) await host.openRun(runId);
		}
		const host = this._editorOf(runId);
		if (host) void host.postWhenReady({ type: 'focus-ask' }, 'focus');
	}

	/**
	 * Adds chips to the ask box (the "Add Context" command): the surface the user is in, else the
	 * view; posted once its webview is ready, and the box gets the keyboard.
	 */
	async addAttachmentChips(chips: readonly AttachmentChip[]): Promise<void> {
		const host = this._target();
		if (host === this.view) this._showView({ preserveFocus: false });
		if (await host.postWhenReady({ type: 'chips-added', chips }, 'ask box')) {
			await host.postWhenReady({ type: 'focus-ask' }, 'focus');
		}
	}

	/** Shows a run in the view (the Runs view's "Open in Panel"), as the panel's past-runs list does. */
	async openRun(runId: string): Promise<void> {
		this._showView({ preserveFocus: false });
		await this.view.openRun(runId);
		void this.view.postWhenReady({ type: 'focus-ask' }, 'focus');
	}

	private _target(): SurfaceHost {
		return this.editors.find((host) => host.focused) ?? this.view;
	}

	/** The editor tab showing `runId` (undefined: a tab that shows no run). */
	private _editorOf(runId: string | undefined): SurfaceHost | undefined {
		return this.editors.find((host) => host.shownRunId === runId);
	}

	/** An editor tab's title: its run's question, or the approvals' `MassGen (1 waiting)` while any wait. */
	private _retitle(host: SurfaceHost): void {
		const title = this._waiting > 0 ? this._title : (this._names.get(host) ?? this._title);
		host.surface?.setWaiting(title, this._waiting);
	}

	private _attach(host: SurfaceHost, surface: WebviewSurface): void {
		host.attach(surface);
		surface.setWaiting(this._title, this._waiting);
	}

	/**
	 * Reveals the side bar view. Before VS Code resolved it, its focus command opens it (with
	 * `preserveFocus`, without moving the keyboard); a visible view is left as it is then.
	 */
	private _showView(options: ShowOptions): void {
		const surface = this.view.surface;
		if (surface) {
			if (!(options.preserveFocus && surface.visible)) surface.reveal(options.preserveFocus);
			return;
		}
		void vscode.commands.executeCommand(`${viewIds.teamPanel}.focus`, {
			preserveFocus: options.preserveFocus,
		});
	}

	private _openEditorTab(): SurfaceHost {
		const panel = vscode.window.createWebviewPanel(
			viewTypes.panel,
			this._title,
			{ viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
			{ enableScripts: true, enableFindWidget: true },
		);
		const host = this._attachEditor(panel);
		this._deps.log.info('editor tab opened');
		return host;
	}

	/** A host for one editor tab: it goes when the tab closes (the run it shows goes on). */
	private _attachEditor(panel: vscode.WebviewPanel): SurfaceHost {
		const media = vscode.Uri.joinPath(this._deps.extensionUri, 'media');
		panel.iconPath = {
			light: vscode.Uri.joinPath(media, 'massgen-light.svg'),
			dark: vscode.Uri.joinPath(media, 'massgen-dark.svg'),
		};
		const host: SurfaceHost = new SurfaceHost(this._surfaceDeps, {
			memento: tabMemento(),
			onDidPostRuns: (rows) => {
				const shown = rows.find((row) => row.shown);
				if (shown) this._names.set(host, shown.name);
				this._retitle(host);
			},
			onClosed: () => {
				this._editors.delete(host);
				this._names.delete(host);
				host.dispose();
			},
		});
		this._editors.add(host);
		this._attach(host, editorSurface(panel));
		return host;
	}
}

/**
 * An editor tab's memory of its run, for its own lifetime only: a reloaded tab finds its run in its
 * webview state (`revive`), and only the side bar view's run is restored from the workspace state.
 */
function tabMemento(): vscode.Memento {
	const values = new Map<string, unknown>();
	return {
		keys: () => [...values.keys()],
		get: <T>(key: string, fallback?: T) => (values.has(key) ? (values.get(key) as T) : fallback),
		update: (key: string, value: unknown) => {
			values.set(key, value);
			return Promise.resolve();
		},
	} as vscode.Memento;
}
