import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { errorMessage } from '../../core/util/errorMessage.js';
import type { HostMessage } from '../../protocol/messages.js';
import { Disposable, toDisposable } from '../common/lifecycle.js';
import type { SessionSecrets } from '../common/log.js';
import { webviewHtml } from '../common/webviewHtml.js';
import type { WebviewSurface } from './webviewSurface.js';

export interface SurfaceWebviewDeps {
	readonly extensionUri: vscode.Uri;
	readonly log: vscode.LogOutputChannel;
	/** Every message to the webview passes through them (live events are redacted already; past runs, change sets and late errors too). */
	readonly secrets?: SessionSecrets;
	/** A message the webview posted (not yet validated). */
	readonly onMessage: (raw: unknown) => void;
	/** The surface is gone (the user closed the tab or removed the view, or the window reloads). */
	readonly onClosed: () => void;
}

/** What a surface's webview may load: the bundles in `dist/` and the icons in `media/`. */
export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
	return {
		enableScripts: true,
		localResourceRoots: [
			vscode.Uri.joinPath(extensionUri, 'dist'),
			vscode.Uri.joinPath(extensionUri, 'media'),
		],
	};
}

/**
 * The page on one surface (a side bar view or an editor tab) and its gate: renders the panel's
 * HTML into it, and tracks whether the webview has had its snapshot. Nothing is posted before the
 * snapshot (`deliverSnapshot`): a (re)loaded webview has no state to apply a batch to.
 */
export class SurfaceWebview extends Disposable {
	private _surface: WebviewSurface | undefined;
	private _surfaceStore: vscode.Disposable[] = [];
	private _ready = false;
	/** Callers of `whenReady` waiting for the snapshot. */
	private readonly _readyWaiters: ((ready: boolean) => void)[] = [];

	constructor(private readonly _deps: SurfaceWebviewDeps) {
		super();
		// Deactivation (e.g. a window reload) closes an editor tab: the serializer restores it afterwards.
		this._register(toDisposable(() => this._surface?.dispose()));
	}

	get surface(): WebviewSurface | undefined {
		return this._surface;
	}

	/** Renders into `surface` (a view just resolved, a tab just opened or restored). */
	attach(surface: WebviewSurface): void {
		this._surface = surface;
		this._ready = false;
		this._surfaceStore = [
			surface.webview.onDidReceiveMessage((raw: unknown) => this._deps.onMessage(raw)),
			// Hidden, the page is gone (no retained context): it says `ready` again when it shows.
			surface.onDidChangeVisibility(() => {
				if (!surface.visible) this._ready = false;
			}),
			surface.onDidDispose(() => {
				if (this._surface !== surface) return;
				for (const d of this._surfaceStore) d.dispose();
				this._surfaceStore = [];
				this._surface = undefined;
				this._ready = false;
				for (const resolve of this._readyWaiters.splice(0)) resolve(false);
				this._deps.log.debug(`${surface.kind}: closed`);
				this._deps.onClosed();
			}),
		];
		surface.webview.options = webviewOptions(this._deps.extensionUri);
		this._render(surface.webview);
	}

	/** The webview (re)loaded: nothing more is posted until its next snapshot. */
	closeGate(): void {
		this._ready = false;
	}

	/** Posts the snapshot (`send`), lets later messages through, and tells `whenReady` callers. */
	deliverSnapshot(send: () => void): void {
		this._ready = this._surface !== undefined;
		send();
		if (this._ready) for (const resolve of this._readyWaiters.splice(0)) resolve(true);
	}

	/** True once the webview has its snapshot; false when the surface closes first. */
	whenReady(): Promise<boolean> {
		if (this._ready) return Promise.resolve(true);
		return new Promise((resolve) => this._readyWaiters.push(resolve));
	}

	/** Posts to the webview once it has its snapshot (dropped before: the snapshot will hold it). */
	post(message: HostMessage): void {
		if (!this._surface || !this._ready) return;
		const safe = this._deps.secrets ? this._deps.secrets.json(message) : message;
		const kind = this._surface.kind;
		void this._surface.webview
			.postMessage(safe)
			.then(undefined, (error: unknown) => this._deps.log.warn(`${kind}: post failed: ${String(error)}`));
	}

	private _render(webview: vscode.Webview): void {
		const { extensionUri } = this._deps;
		const asset = (...path: string[]) =>
			webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', ...path)).toString();
		try {
			webview.html = webviewHtml({
				cspSource: webview.cspSource,
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
				`panel: cannot render (cspSource ${JSON.stringify(webview.cspSource)}): ${message}`,
			);
			webview.html = fallbackHtml(
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
