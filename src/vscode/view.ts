import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { viewTypes } from './commandIds';
import { Disposable, toDisposable } from './lifecycle';

/**
 * Hosts the MassGen webview panel (one at a time). For now it shows a static placeholder;
 * issue 4 replaces the body with the live run view (webview bundle, ready handshake, snapshot).
 */
export class PanelHost extends Disposable {
	private _panel: vscode.WebviewPanel | undefined;

	constructor(
		private readonly _extensionUri: vscode.Uri,
		private readonly _log: vscode.LogOutputChannel,
	) {
		super();
		this._register(toDisposable(() => this._panel?.dispose()));
	}

	show(): void {
		if (this._panel) {
			this._panel.reveal(undefined, false);
			return;
		}
		const media = vscode.Uri.joinPath(this._extensionUri, 'media');
		const panel = vscode.window.createWebviewPanel(
			viewTypes.panel,
			'MassGen',
			{ viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
			{ enableScripts: false, localResourceRoots: [media] },
		);
		panel.iconPath = {
			light: vscode.Uri.joinPath(media, 'massgen-light.svg'),
			dark: vscode.Uri.joinPath(media, 'massgen-dark.svg'),
		};
		panel.webview.html = renderPlaceholder(panel.webview.cspSource, createNonce());
		panel.onDidDispose(() => {
			this._panel = undefined;
			this._log.debug('panel closed');
		});
		this._panel = panel;
		this._log.info('panel opened');
	}
}

function createNonce(): string {
	return randomBytes(16).toString('base64');
}

/** Strict CSP: nothing remote, no inline code without the nonce, no eval. */
export function renderPlaceholder(cspSource: string, nonce: string): string {
	const csp = [
		"default-src 'none'",
		`img-src ${cspSource}`,
		`font-src ${cspSource}`,
		`style-src 'nonce-${nonce}'`,
		`script-src 'nonce-${nonce}'`,
	].join('; ');
	return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>MassGen</title>
<style nonce="${nonce}">
	body { font-family: var(--vscode-font-family); color: var(--vscode-foreground); padding: 1rem 1.5rem; }
	h1 { font-size: 1.4em; font-weight: 600; margin: 0 0 0.5rem; }
	p { color: var(--vscode-descriptionForeground); }
</style>
</head>
<body>
<h1 id="title">MassGen</h1>
<p id="placeholder">No run to show yet. The live team panel is not implemented yet.</p>
</body>
</html>
`;
}
