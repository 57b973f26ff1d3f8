import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { errorMessage } from '../../core/util/errorMessage.js';
import type { HostMessage } from '../../protocol/messages.js';
import { viewTypes } from '../common/commandIds.js';
import { Disposable, toDisposable } from '../common/lifecycle.js';
import type { SessionSecrets } from '../common/log.js';
import { webviewHtml } from '../common/webviewHtml.js';

export interface PanelWebviewDeps {
	readonly extensionUri: vscode.Uri;
	readonly log: vscode.LogOutputChannel;
	/** Every message to the webview passes through them (live events are redacted already; past runs, change sets and late errors too). */
	readonly secrets?: SessionSecrets;
	/** A message the webview posted (not yet validated). */
	readonly onMessage: (raw: unknown) => void;
	/** The panel is gone; `byUser`: the user closed it (not the host at deactivation or a reload). */
	readonly onClosed: (byUser: boolean) => void;
}

/**
 * The one webview panel and its gate: owns the `WebviewPanel` (created, revived after a reload,
 * closed), its title, and whether the webview has had its snapshot. Nothing is posted before the
 * snapshot (`deliverSnapshot`): a (re)loaded webview has no state to apply a batch to.
 */
export class PanelWebview extends Disposable {
	private _panel: vscode.WebviewPanel | undefined;
	private _panelStore: vscode.Disposable[] = [];
	private _ready = false;
	private _title = 'MassGen';
	/** Set while the host itself closes the panel (deactivate, window reload): not a user's close. */
	private _closingOurselves = false;
	/** Callers of `whenReady` waiting for the snapshot. */
	private readonly _readyWaiters: ((ready: boolean) => void)[] = [];

	constructor(private readonly _deps: PanelWebviewDeps) {
		super();
		this._register(
			toDisposable(() => {
				// Deactivation (e.g. a window reload) disposes the host first: the run is not the
				// user's to lose here, and the serializer restores the panel afterwards.
				this._closingOurselves = true;
				this._panel?.dispose();
			}),
		);
	}

	get panel(): vscode.WebviewPanel | undefined {
		return this._panel;
	}

	get visible(): boolean {
		return this._panel?.visible ?? false;
	}

	get focused(): boolean {
		return (this._panel?.visible ?? false) && (this._panel?.active ?? false);
	}

	get title(): string {
		return this._title;
	}

	set title(title: string) {
		this._title = title;
		if (this._panel && this._panel.title !== title) this._panel.title = title;
	}

	/**
	 * Opens or reveals the panel. With `preserveFocus` (a run started from a command) the keyboard
	 * stays where the user was, and a visible panel is left where it is.
	 */
	show(options: { preserveFocus: boolean }): void {
		if (this._panel) {
			if (!(options.preserveFocus && this._panel.visible)) {
				this._panel.reveal(undefined, options.preserveFocus);
			}
			return;
		}
		const column =
			options.preserveFocus && vscode.window.activeTextEditor
				? vscode.ViewColumn.Beside
				: vscode.ViewColumn.Active;
		const panel = vscode.window.createWebviewPanel(
			viewTypes.panel,
			this._title,
			{ viewColumn: column, preserveFocus: options.preserveFocus },
			this._options(),
		);
		this._attach(panel);
		this._deps.log.info('panel opened');
	}

	/** Called by the serializer when VS Code restores the panel after a reload. */
	revive(panel: vscode.WebviewPanel): void {
		if (this._panel) {
			panel.dispose();
			return;
		}
		panel.webview.options = this._options();
		panel.title = this._title;
		this._attach(panel);
		this._deps.log.info('panel restored');
	}

	/** The webview (re)loaded: nothing more is posted until its next snapshot. */
	closeGate(): void {
		this._ready = false;
	}

	/** Posts the snapshot (`send`), lets later messages through, and tells `whenReady` callers. */
	deliverSnapshot(send: () => void): void {
		this._ready = this._panel !== undefined;
		send();
		if (this._ready) for (const resolve of this._readyWaiters.splice(0)) resolve(true);
	}

	/** True once the webview has its snapshot; false when the panel closes first. */
	whenReady(): Promise<boolean> {
		if (this._ready) return Promise.resolve(true);
		return new Promise((resolve) => this._readyWaiters.push(resolve));
	}

	/** Posts to the webview once it has its snapshot (dropped before: the snapshot will hold it). */
	post(message: HostMessage): void {
		if (!this._panel || !this._ready) return;
		const safe = this._deps.secrets ? this._deps.secrets.json(message) : message;
		void this._panel.webview
			.postMessage(safe)
			.then(undefined, (error: unknown) => this._deps.log.warn(`panel: post failed: ${String(error)}`));
	}

	private _options(): vscode.WebviewPanelOptions & vscode.WebviewOptions {
		const { extensionUri } = this._deps;
		return {
			enableScripts: true,
			enableFindWidget: true,
			localResourceRoots: [
				vscode.Uri.joinPath(extensionUri, 'dist'),
				vscode.Uri.joinPath(extensionUri, 'media'),
			],
		};
	}

	private _attach(panel: vscode.WebviewPanel): void {
		const { extensionUri } = this._deps;
		const media = vscode.Uri.joinPath(extensionUri, 'media');
		const asset = (...path: string[]) =>
			panel.webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', ...path)).toString();
		panel.iconPath = {
			light: vscode.Uri.joinPath(media, 'massgen-light.svg'),
			dark: vscode.Uri.joinPath(media, 'massgen-dark.svg'),
		};
		this._panel = panel;
		this._ready = false;
		this._panelStore = [
			panel.webview.onDidReceiveMessage((raw: unknown) => this._deps.onMessage(raw)),
			panel.onDidDispose(() => {
				for (const d of this._panelStore) d.dispose();
				this._panelStore = [];
				this._panel = undefined;
				this._ready = false;
				for (const resolve of this._readyWaiters.splice(0)) resolve(false);
				this._deps.log.debug('panel closed');
				this._deps.onClosed(!this._closingOurselves);
			}),
		];
		try {
			panel.webview.html = webviewHtml({
				cspSource: panel.webview.cspSource,
				nonce: randomBytes(16).toString('base64'),
				scriptUri: asset('webview.js'),
				styleUri: asset('webview.css'),
				codiconsUri: asset('codicons', 'codicon.css'),
				title: 'MassGen',
			});
		} catch (error) {
			// Never leave a blank panel without a word: say what failed (details in the log).
			const message = errorMessage(error);
			this._deps.log.error(
				`panel: cannot render (cspSource ${JSON.stringify(panel.webview.cspSource)}): ${message}`,
			);
			panel.webview.html = fallbackHtml(
				vscode.l10n.t('The MassGen panel could not be rendered: {0}. See the MassGen log.', message),
			);
		}
	}
}

/** A static page (no script at all) for when the panel itself cannot be built. */
function fallbackHtml(text: string): string {
	const escaped = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
	return `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'"><title>MassGen</title></head><body><p id="panel-error">${escaped}</p></body></html>`;
}
