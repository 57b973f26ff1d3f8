/**
 * Serves the panel exactly as the extension host builds it (`webviewHtml`, same CSP) from a
 * loopback HTTP server, and drives it in Debian's Chromium with playwright-core. A stub
 * `acquireVsCodeApi` (injected before any page script) records posted messages and keeps
 * `setState` data in sessionStorage, so a reload restores it as VS Code would. Every page also
 * records `securitypolicyviolation` events and console errors.
 */
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve } from 'node:path';
import { build } from 'esbuild';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { RunEvent } from '../../../src/contract/runEvents.js';
import type { PastRunSummary } from '../../../src/contract/pastRunSummary.js';
import type { HostMessage } from '../../../src/protocol/messages.js';
import { parseWebviewMessage } from '../../../src/protocol/webviewMessageSchema.js';
import { englishTexts, webviewStrings } from '../../../src/vscode/panel/panelStrings.js';
import { webviewHtml } from '../../../src/vscode/common/webviewHtml.js';
import { darkTheme } from './darkTheme.js';

export const repoRoot = resolve(__dirname, '../../..');
export const artifactsDir = join(repoRoot, 'test-results', 'webview');

export const chromiumArgs = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

/** What the page-side helpers put on `window` (typed here; the root tsconfig has no DOM lib). */
export interface PanelWindow {
	__posted: unknown[];
	__violations: { directive: string; blocked: string; sample: string }[];
	__massgenRenders?: number;
	__xss?: boolean;
	postMessage(message: unknown, targetOrigin: string): void;
	requestAnimationFrame(callback: () => void): number;
}

export type Variant = 'test' | 'prod';

/** Builds the panel bundle with the render counter enabled (`MASSGEN_TEST`), like `build:webview`. */
export async function buildTestBundle(outDir: string): Promise<void> {
	mkdirSync(join(outDir, 'codicons'), { recursive: true });
	await build({
		entryPoints: [join(repoRoot, 'webview', 'main.ts')],
		bundle: true,
		platform: 'browser',
		format: 'iife',
		target: 'chrome120',
		minify: true,
		sourcemap: true,
		define: { MASSGEN_TEST: 'true' },
		outfile: join(outDir, 'webview.js'),
		logLevel: 'silent',
	});
	await build({
		entryPoints: [join(repoRoot, 'webview', 'style.css')],
		bundle: true,
		minify: true,
		outfile: join(outDir, 'webview.css'),
		logLevel: 'silent',
	});
	for (const file of ['codicon.css', 'codicon.ttf']) {
		copyFileSync(
			join(repoRoot, 'node_modules', '@vscode', 'codicons', 'dist', file),
			join(outDir, 'codicons', file),
		);
	}
}

const contentTypes: Record<string, string> = {
	'.html': 'text/html; charset=utf-8',
	'.js': 'text/javascript; charset=utf-8',
	'.css': 'text/css; charset=utf-8',
	'.ttf': 'font/ttf',
	'.map': 'application/json',
};

export interface PanelServer {
	readonly origin: string;
	url(variant: Variant): string;
	close(): Promise<void>;
}

/** `/test/…` serves the test bundle, `/prod/…` the real `dist/` output (`npm run build:webview`). */
export async function startPanelServer(testBundleDir: string): Promise<PanelServer> {
	const roots: Record<Variant, string> = { test: testBundleDir, prod: join(repoRoot, 'dist') };
	let origin = '';
	const server: Server = createServer((request, response) => {
		const url = new URL(request.url ?? '/', origin);
		if (url.pathname === '/favicon.ico') {
			response.writeHead(204).end();
			return;
		}
		const [, variant, ...rest] = url.pathname.split('/');
		if (variant !== 'test' && variant !== 'prod') {
			response.writeHead(404).end();
			return;
		}
		const path = rest.join('/');
		if (path === 'panel.html') {
			const base = `${origin}/${variant}`;
			const html = webviewHtml({
				cspSource: `'self' ${origin}`, // shaped like VS Code's own value
				nonce: randomBytes(16).toString('base64'),
				scriptUri: `${base}/webview.js`,
				styleUri: `${base}/webview.css`,
				codiconsUri: `${base}/codicons/codicon.css`,
				title: 'MassGen',
			});
			response
				.writeHead(200, { 'content-type': contentTypes['.html']!, 'cache-control': 'no-store' })
				.end(html);
			return;
		}
		const root = roots[variant];
		const file = normalize(join(root, path));
		if (!file.startsWith(root) || !existsSync(file)) {
			response.writeHead(404).end();
			return;
		}
		response
			.writeHead(200, {
				'content-type': contentTypes[extname(file)] ?? 'application/octet-stream',
				'cache-control': 'no-store',
			})
			.end(readFileSync(file));
	});
	await new Promise<void>((resolveListen) => server.listen(0, '127.0.0.1', resolveListen));
	origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return {
		origin,
		url: (variant) => `${origin}/${variant}/panel.html`,
		close: () => new Promise<void>((resolveClose) => server.close(() => resolveClose())),
	};
}

/**
 * Runs in the page before any of its scripts (like VS Code's own preload, not subject to the
 * page's CSP). Plain JavaScript text: tsx/esbuild name helpers must not leak into the page.
 */
function pagePreload(theme: Record<string, string>): string {
	return `(() => {
	const theme = ${JSON.stringify(theme)};
	window.__posted = [];
	window.__violations = [];
	// A VS Code webview reload is a fresh document: no browser scroll restoration.
	history.scrollRestoration = 'manual';
	document.addEventListener('securitypolicyviolation', (event) => {
		window.__violations.push({ directive: event.violatedDirective, blocked: event.blockedURI, sample: event.sample });
	}, true);
	const applyTheme = () => {
		for (const [name, value] of Object.entries(theme)) document.documentElement.style.setProperty(name, value);
	};
	if (document.documentElement) applyTheme();
	else {
		const observer = new MutationObserver(() => {
			if (!document.documentElement) return;
			observer.disconnect();
			applyTheme();
		});
		observer.observe(document, { childList: true });
	}
	let acquired = false;
	window.acquireVsCodeApi = function () {
		if (acquired) throw new Error('An instance of the VS Code API has already been acquired');
		acquired = true;
		return {
			postMessage(message) { window.__posted.push(JSON.parse(JSON.stringify(message))); },
			getState() { return JSON.parse(sessionStorage.getItem('vscode-state') || 'null'); },
			setState(state) { sessionStorage.setItem('vscode-state', JSON.stringify(state)); return state; },
		};
	};
})();`;
}

/** A host message as tests write it: a snapshot without a strings table gets the English one, without a switcher list none. */
export type TestHostMessage =
	| Exclude<HostMessage, { type: 'snapshot' }>
	| (Omit<Extract<HostMessage, { type: 'snapshot' }>, 'strings' | 'liveRuns'> & {
			strings?: Extract<HostMessage, { type: 'snapshot' }>['strings'];
			liveRuns?: Extract<HostMessage, { type: 'snapshot' }>['liveRuns'];
	  });

export interface PanelPage {
	readonly page: Page;
	readonly consoleErrors: string[];
	send(message: TestHostMessage): Promise<void>;
	posted(): Promise<unknown[]>;
	violations(): Promise<PanelWindow['__violations']>;
	renders(): Promise<number>;
	/** Resolves after the next two animation frames (a scheduled render has run). */
	frames(count?: number): Promise<void>;
	screenshot(name: string, fullPage?: boolean): Promise<string>;
}

export async function launchBrowser(): Promise<Browser> {
	return chromium.launch({ executablePath: '/usr/bin/chromium', args: chromiumArgs });
}

export async function openPanel(
	context: BrowserContext,
	server: PanelServer,
	variant: Variant = 'test',
): Promise<PanelPage> {
	const page = await context.newPage();
	page.setDefaultTimeout(5_000);
	const consoleErrors: string[] = [];
	page.on('console', (message) => {
		if (message.type() === 'error' || /Content Security Policy/i.test(message.text())) {
			consoleErrors.push(message.text());
		}
	});
	page.on('pageerror', (error) => consoleErrors.push(`pageerror: ${error.message}`));
	await page.goto(server.url(variant));
	await waitForExpression(page, 'window.__posted.length > 0');
	return wrapPage(page, consoleErrors);
}

/**
 * Polls a page expression (Playwright's `waitForFunction` evaluates its predicate with `eval`,
 * which the panel's CSP rightly refuses).
 */
export async function waitForExpression(page: Page, expression: string, timeoutMs = 10_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!(await page.evaluate(expression))) {
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${expression}`);
		await new Promise((resolveWait) => setTimeout(resolveWait, 20));
	}
}

export async function newPanelContext(
	browser: Browser,
	viewport = { width: 1280, height: 900 },
): Promise<BrowserContext> {
	const context = await browser.newContext({ viewport, colorScheme: 'dark', deviceScaleFactor: 1 });
	await context.addInitScript({ content: pagePreload({ ...darkTheme }) });
	return context;
}

export function wrapPage(page: Page, consoleErrors: string[]): PanelPage {
	const frames = (count = 2) =>
		page.evaluate(`new Promise((resolve) => {
			let left = ${Number(count)};
			const step = () => (--left <= 0 ? resolve() : requestAnimationFrame(step));
			requestAnimationFrame(step);
		})`) as Promise<void>;
	return {
		page,
		consoleErrors,
		send: async (message) => {
			const full =
				message.type === 'snapshot'
					? { strings: webviewStrings(englishTexts), liveRuns: [], ...message }
					: message;
			await page.evaluate(`window.postMessage(${JSON.stringify(full)}, '*')`);
			await frames();
		},
		posted: () => page.evaluate('window.__posted') as Promise<unknown[]>,
		violations: () => page.evaluate('window.__violations') as Promise<PanelWindow['__violations']>,
		renders: () => page.evaluate('window.__massgenRenders || 0') as Promise<number>,
		frames,
		screenshot: async (name, fullPage = true) => {
			mkdirSync(artifactsDir, { recursive: true });
			const path = join(artifactsDir, `${name}.png`);
			if (!fullPage) {
				await page.screenshot({ path });
				return path;
			}
			// Grow the viewport to the whole page, so sticky header and question box sit where a user sees them.
			const viewport = page.viewportSize() ?? { width: 1280, height: 900 };
			const height = (await page.evaluate('document.documentElement.scrollHeight')) as number;
			await page.setViewportSize({
				width: viewport.width,
				height: Math.max(viewport.height, Math.ceil(height)),
			});
			await frames();
			await page.screenshot({ path });
			await page.setViewportSize(viewport);
			await frames();
			return path;
		},
	};
}

export function readNdjson(path: string): RunEvent[] {
	return readFileSync(path, 'utf8')
		.split('\n')
		.filter((line) => line.trim().length > 0)
		.map((line) => JSON.parse(line) as RunEvent);
}

export const demoEvents = (): RunEvent[] =>
	readNdjson(join(repoRoot, 'test', 'fixtures', 'webview', 'demo-run.ndjson'));

export function pastRuns(): PastRunSummary[] {
	return [
		{
			runId: '20261130-035313-y0cy',
			question: 'How should we document this project?',
			status: 'completed',
			startedAt: '2026-11-30T03:53:13.000Z',
			winner: { agentId: 'reviewer', label: 'agent1.1' },
		},
		{
			runId: '20261129-174002-k3p9',
			question: 'Why does the config loader crash on an empty agents list?',
			status: 'timeout',
			startedAt: '2026-11-29T17:40:02.000Z',
			winner: { agentId: 'gpt', label: 'agent1.2' },
		},
		{
			runId: '20261128-091500-a1b2',
			question: 'Refactor the retry loop',
			status: 'cancelled',
			startedAt: '2026-11-28T09:15:00.000Z',
			winner: null,
		},
	];
}

/** A per-process bundle directory (vitest runs files in parallel processes). */
export function makeBundleDir(): { dir: string; remove(): void } {
	const dir = mkdtempSync(join(tmpdir(), 'massgen-webview-'));
	return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Everything a test file needs: bundle, server, browser. */
export async function startHarness(): Promise<{
	server: PanelServer;
	browser: Browser;
	close(): Promise<void>;
}> {
	const bundle = makeBundleDir();
	await buildTestBundle(bundle.dir);
	const server = await startPanelServer(bundle.dir);
	const browser = await launchBrowser();
	return {
		server,
		browser,
		close: async () => {
			await browser.close();
			await server.close();
			bundle.remove();
		},
	};
}

/**
 * What every test ends with: no CSP violation, no console error or uncaught exception, and every
 * message the panel posted passes the host's zod validation.
 */
export async function pageProblems(panel: PanelPage): Promise<string[]> {
	const problems: string[] = [];
	for (const violation of await panel.violations()) {
		problems.push(`CSP violation: ${JSON.stringify(violation)}`);
	}
	for (const error of panel.consoleErrors) problems.push(`console: ${error}`);
	for (const message of await panel.posted()) {
		const parsed = parseWebviewMessage(message);
		if (!parsed.ok) problems.push(`rejected by the host: ${JSON.stringify(message)}: ${parsed.error}`);
	}
	return problems;
}
