/**
 * The panel's HTML shell (pure function): the CSP, the nonce on the one script, escaping.
 */
import { describe, expect, it } from 'vitest';
import { webviewCsp, webviewHtml } from '../../../src/vscode/common/webviewHtml.js';

const options = {
	cspSource: 'https://*.vscode-cdn.net',
	nonce: 'cmFuZG9tLW5vbmNlLTEyMzQ1Ng==',
	scriptUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview.js',
	styleUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview.css',
	codiconsUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/codicons/codicon.css',
	title: 'MassGen',
};

describe('webviewHtml', () => {
	it('sets a strict CSP: nonce scripts only, styles/fonts/images from the extension, no eval, no inline styles', () => {
		expect(webviewCsp(options.cspSource, options.nonce)).toBe(
			"default-src 'none'; script-src 'nonce-cmFuZG9tLW5vbmNlLTEyMzQ1Ng=='; style-src https://*.vscode-cdn.net; " +
				"font-src https://*.vscode-cdn.net; img-src https://*.vscode-cdn.net data:; base-uri 'none'; form-action 'none'",
		);
		const html = webviewHtml(options);
		expect(html).toContain(
			`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'nonce-${options.nonce}';`,
		);
		expect(html).not.toMatch(/unsafe-eval|unsafe-inline|https?:\/\/(?!file\+|\*\.vscode-cdn)/);
	});

	it('loads exactly one script, with the nonce, and the stylesheets (codicons with the id vscode-elements expects)', () => {
		const html = webviewHtml(options);
		expect(html.match(/<script/g)).toHaveLength(1);
		expect(html).toContain(`<script nonce="${options.nonce}" src="${options.scriptUri}"></script>`);
		expect(html).toContain(
			`<link rel="stylesheet" id="vscode-codicon-stylesheet" href="${options.codiconsUri}"`,
		);
		expect(html).toContain(`<link rel="stylesheet" href="${options.styleUri}"`);
		expect(html).not.toMatch(/<style|style=/);
		expect(html).toContain('<main id="app"');
	});

	it('escapes the title and the URIs', () => {
		const html = webviewHtml({
			...options,
			title: '</title><script>alert(1)</script>',
			scriptUri: 'https://x/a.js"onload="alert(1)',
		});
		expect(html).toContain('<title>&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;</title>');
		expect(html).toContain('src="https://x/a.js&quot;onload=&quot;alert(1)"');
	});

	it("accepts VS Code's real cspSource, which includes the 'self' keyword", () => {
		expect(webviewCsp("'self' https://*.vscode-cdn.net", options.nonce)).toContain(
			"style-src 'self' https://*.vscode-cdn.net; font-src 'self' https://*.vscode-cdn.net; img-src 'self' https://*.vscode-cdn.net data:",
		);
	});

	it('refuses a weak nonce or a cspSource that would inject directives', () => {
		expect(() => webviewHtml({ ...options, nonce: 'short' })).toThrow(/nonce/);
		expect(() => webviewHtml({ ...options, nonce: "abcdefghijklmnopq' 'unsafe-inline" })).toThrow(/nonce/);
		expect(() => webviewHtml({ ...options, cspSource: "https://a; script-src 'unsafe-eval'" })).toThrow(
			/cspSource/,
		);
		expect(() => webviewHtml({ ...options, cspSource: '' })).toThrow(/cspSource/);
		expect(() => webviewHtml({ ...options, cspSource: "'self' 'unsafe-inline'" })).toThrow(/cspSource/);
		expect(() => webviewHtml({ ...options, cspSource: "https://a  'self'" })).toThrow(/cspSource/);
	});
});
