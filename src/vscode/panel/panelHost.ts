import * as vscode from 'vscode';
import type { AttachmentChip } from '../../protocol/attachmentChip.js';
import type { ApprovalDecision } from '../../protocol/messages.js';
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
 * The team's panel: its home is the side bar view (`massgen.teamPanel`); "Open in Editor" shows
 * the run in a wide editor tab too. One `SurfaceHost` per surface renders the same page with the
 * same messages, validation and restore (docs/editor.md). Commands that show the panel reveal the
 * view and give its ask box the keyboard; a run started from elsewhere shows without taking it.
 */
export class PanelHost extends Disposable {
	/** The side bar view (resolved by VS Code when it first shows: `resolveView`). */
	readonly view: SurfaceHost;
	/** The editor tab ("Open in Editor", or restored after a reload: `revive`). */
	readonly editor: SurfaceHost;
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
		this.view = this._register(new SurfaceHost(surfaceDeps));
		this.editor = this._register(new SurfaceHost(surfaceDeps));
		this._register(
			// Every run shows in the side bar (unless the editor tab shows it already); showing it
			// never takes the keyboard from the user.
			_deps.runs.onDidStartRun(() => {
				if (!this.editor.visible) this._showView({ preserveFocus: true });
			}),
		);
	}

	/** Either surface is visible. */
	get visible(): boolean {
		return this.view.visible || this.editor.visible;
	}

	/** Either surface has the keyboard focus. */
	get focused(): boolean {
		return this.view.focused || this.editor.focused;
	}

	/** The editor tab's title; `MassGen (1 waiting)` stands in for a badge while approvals wait. */
	get title(): string {
		return this._title;
	}

	/** The approvals waiting: the editor tab's title (`title`) and the view's badge say it. */
	setWaiting(title: string, count: number): void {
		this._title = title;
		this._waiting = count;
		for (const host of [this.view, this.editor]) host.surface?.setWaiting(title, count);
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

	/** Called by the serializer when VS Code restores the editor tab after a reload. */
	revive(panel: vscode.WebviewPanel): void {
		if (this.editor.surface) {
			panel.dispose();
			return;
		}
		this._attachEditor(panel);
		this._deps.log.info('editor tab restored');
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

	/** Focus Ask Box: the ask box of the surface the user is in (the editor tab), else the view's. */
	focusAskBox(): void {
		const host = this._target();
		if (host === this.editor) this.editor.surface?.reveal(false);
		else this._showView({ preserveFocus: false });
		void host.postWhenReady({ type: 'focus-ask' }, 'focus');
	}

	/** Open in Editor: a wide editor tab showing the run the view shows, its ask box focused. */
	async openInEditor(): Promise<void> {
		if (this.editor.surface) this.editor.surface.reveal(false);
		else this._openEditorTab();
		const runId = this.view.shownRunId;
		if (runId) await this.editor.openRun(runId);
		void this.editor.postWhenReady({ type: 'focus-ask' }, 'focus');
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
		return this.editor.focused ? this.editor : this.view;
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

	private _openEditorTab(): void {
		const panel = vscode.window.createWebviewPanel(
			viewTypes.panel,
			this._title,
			{ viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
			{ enableScripts: true, enableFindWidget: true },
		);
		this._attachEditor(panel);
		this._deps.log.info('editor tab opened');
	}

	private _attachEditor(panel: vscode.WebviewPanel): void {
		const media = vscode.Uri.joinPath(this._deps.extensionUri, 'media');
		panel.iconPath = {
			light: vscode.Uri.joinPath(media, 'massgen-light.svg'),
			dark: vscode.Uri.joinPath(media, 'massgen-dark.svg'),
		};
		this._attach(this.editor, editorSurface(panel));
	}
}
