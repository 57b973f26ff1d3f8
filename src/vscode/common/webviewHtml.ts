/**
 * The panel's HTML shell. Pure (no `vscode` import) so tests can serve the exact page the
 * extension host shows, with the same Content Security Policy.
 */

export interface WebviewHtmlOptions {
	/** `webview.cspSource`: the only origin scripts' assets, styles, fonts and images may come from. */
	readonly cspSource: string;
	/** A fresh random nonce per render (base64 or hex); the only way a script runs. */
	readonly nonce: string;
	/** `webview.asWebviewUri(dist/webview.js)`. */
	readonly scriptUri: string;
	/** `webview.asWebviewUri(dist/webview.css)`. */
	readonly styleUri: string;
	/** `webview.asWebviewUri(dist/codicons/codicon.css)` (the font file sits next to it). */
	readonly codiconsUri: string;
	readonly title: string;
}

const noncePattern = /^[A-Za-z0-9+/_-]{16,}={0,2}$/;

/**
 * Strict CSP: nothing but the nonce'd bundle runs (no inline handlers, no eval), styles, fonts and
 * images only from the extension's own resources (Lit components use constructable stylesheets,
 * which need no `'unsafe-inline'`), no network, no frames, no forms.
 */
export function webviewCsp(cspSource: string, nonce: string): string {
	if (!noncePattern.test(nonce)) throw new Error('webviewHtml: the nonce must be 16+ base64/hex characters');
	// VS Code's value is e.g. `'self' https://*.vscode-cdn.net`: host sources and the 'self' keyword only.
	const sources = cspSource.split(' ');
	if (
		cspSource.length === 0 ||
		!sources.every((source) => source === "'self'" || /^[^\s;,'"<>]+$/.test(source))
	) {
		throw new Error("webviewHtml: cspSource must be host sources or 'self'");
	}
	return [
		"default-src 'none'",
		`script-src 'nonce-${nonce}'`,
		`style-src ${cspSource}`,
		`font-src ${cspSource}`,
		`img-src ${cspSource} data:`,
		"base-uri 'none'",
		"form-action 'none'",
	].join('; ');
}

export function webviewHtml(options: WebviewHtmlOptions): string {
	const { nonce } = options;
	const csp = webviewCsp(options.cspSource, nonce);
	return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" id="vscode-codicon-stylesheet" href="${escapeAttribute(options.codiconsUri)}" nonce="${nonce}">
<link rel="stylesheet" href="${escapeAttribute(options.styleUri)}" nonce="${nonce}">
<title>${escapeText(options.title)}</title>
</head>
<body>
<main id="app" aria-busy="true"></main>
<script nonce="${nonce}" src="${escapeAttribute(options.scriptUri)}"></script>
</body>
</html>
`;
}

function escapeText(text: string): string {
	return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** For double-quoted attribute values. */
function escapeAttribute(text: string): string {
	return escapeText(text).replace(/"/g, '&quot;');
}
