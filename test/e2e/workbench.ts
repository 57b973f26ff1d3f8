// Playwright helpers for the code-server workbench, using Debian's Chromium (playwright-core only).
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { format } from 'node:util';
import { type Browser, type BrowserContext, chromium, type FrameLocator, type Page } from 'playwright-core';
import type { CodeServer } from './codeServer';

export const repoRoot = resolve(__dirname, '..', '..');
/** Declares the language-model vendor of the in-host tests' recording provider (test/host/lmRecorder.ts). */
export const lmVendorExtension = join(repoRoot, 'test', 'fixtures', 'vscode', 'lm-vendor');
/** Artifacts (screenshots, logs); MASSGEN_E2E_RESULTS moves them, e.g. for two runs at once in one checkout. */
export const resultsDir = process.env.MASSGEN_E2E_RESULTS
	? resolve(process.env.MASSGEN_E2E_RESULTS)
	: join(repoRoot, 'test-results', 'e2e');
const chromiumPath = process.env.MASSGEN_CHROMIUM || '/usr/bin/chromium';

/**
 * The MassGen container's tab in the activity bar: its accessible name grows the Runs view's badge
 * ("MassGen - 1 …") when a run needs the user; the secondary side bar's "MassGen Team" is not it.
 */
export const massgenTab = /^MassGen(?! Team)/;

export function launchBrowser(home: string): Promise<Browser> {
	return chromium.launch({
		executablePath: chromiumPath,
		headless: true,
		// HOME keeps Chromium's crash reports and dconf out of the real home directory.
		env: { ...process.env, HOME: home },
		args: [
			'--headless',
			'--no-sandbox',
			'--disable-gpu',
			'--disable-quic',
			'--no-first-run',
			'--disable-background-networking',
			'--disable-component-update',
			'--disable-sync',
		],
	});
}

export interface OpenOptions {
	/** Absolute path of the workspace folder to open. */
	readonly folder: string;
	/** Absolute path of a `.code-workspace` file to open instead of `folder`. */
	readonly workspaceFile?: string;
	/** Absolute path of the extension under development (default: the repo; null: none, e.g. to test an installed VSIX). */
	readonly extensionDevelopmentPath?: string | null;
	/** Absolute path of a compiled test entry exporting `run()`; runs mocha inside the extension host. */
	readonly extensionTestsPath?: string;
	/** Absolute paths of the tests' own extensions, loaded beside it (`lmVendorExtension`). */
	readonly testExtensions?: readonly string[];
	/** Workbench and extension-host console lines (printf-style args already formatted). */
	readonly onLog?: (line: string) => void;
	/** Called by the workbench when the extension tests finish (only with `extensionTestsPath`). */
	readonly onExit?: (code: number) => void;
}

const loopbackHosts = new Set(['127.0.0.1', 'localhost', '[::1]']);

function isLoopback(url: string): boolean {
	try {
		const { protocol, hostname } = new URL(url);
		return /^(https?|wss?):$/.test(protocol) && loopbackHosts.has(hostname);
	} catch {
		return false;
	}
}

/** One workbench window (fresh browser context, fresh extension host). */
export class Workbench {
	/** Requests to anything but loopback; each was aborted. */
	readonly blockedRequests: string[] = [];

	private constructor(
		readonly context: BrowserContext,
		readonly page: Page,
	) {}

	static async open(browser: Browser, server: CodeServer, options: OpenOptions): Promise<Workbench> {
		const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
		const page = await context.newPage();
		const workbench = new Workbench(context, page);
		await context.route('**/*', (route) => {
			const url = route.request().url();
			if (isLoopback(url)) return route.continue();
			workbench.blockedRequests.push(url);
			return route.abort('blockedbyclient');
		});
		// Every window of this context (a scenario may open a second one) loads the extension.
		await context.addInitScript({
			content: developmentOptionsScript(server.url, developmentOptions(server, options)),
		});
		// WebSockets bypass `route`; count any that leave loopback (there should be none).
		page.on('websocket', (ws) => {
			if (!isLoopback(ws.url())) workbench.blockedRequests.push(ws.url());
		});
		// The workbench calls these globals if they exist; they must be exposed before navigation.
		if (options.onLog) {
			const onLog = options.onLog;
			await page.exposeFunction('codeAutomationLog', (_type: string, args: unknown[]) =>
				onLog(format(...(Array.isArray(args) ? args : [args]))),
			);
		}
		if (options.onExit) {
			const onExit = options.onExit;
			await page.exposeFunction('codeAutomationExit', (code: number) => onExit(code));
		}
		await page.goto(workbenchUrl(server, options));
		await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
		return workbench;
	}

	/** Waits until the explorer lists `name` (the remote file system is up). */
	async waitForExplorer(name: string): Promise<void> {
		await this.page.getByRole('treeitem', { name }).first().waitFor({ timeout: 60_000 });
	}

	/**
	 * Opens `name` from the explorer in an editor, as a double click does, and waits until it is the
	 * active group's active tab and has the focus (another editor, say a run's diff, may hold the
	 * focus until then). The team's view shares the side bar with the Explorer: show the Explorer
	 * first when it is not.
	 */
	async openInEditor(name: string): Promise<void> {
		const item = this.page.getByRole('treeitem', { name }).first();
		if (!(await item.isVisible())) {
			await this.page.keyboard.press('Control+Shift+E');
			await item.waitFor({ timeout: 15_000 });
		}
		await item.dblclick();
		const group = this.page.locator('.editor-group-container.active');
		await group.locator('.tab.active', { hasText: name }).first().waitFor({ timeout: 15_000 });
		await group.locator('.editor-instance .monaco-editor.focused').waitFor({ timeout: 15_000 });
	}

	/**
	 * Runs a command from the palette by its full title ("MassGen: Show Panel"). The palette's list is
	 * computed when it opens, so a command the extension host has not registered yet never appears:
	 * retry opening it until the row shows up.
	 */
	async runCommand(
		title: string,
		options: {
			beforeRun?: () => Promise<void>;
			/** The command opens its own quick input (an input box): do not wait for the palette to close. */
			opensInput?: boolean;
		} = {},
	): Promise<void> {
		const input = this.page.locator('.quick-input-widget input.input');
		const row = this.page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
		for (let attempt = 1; attempt <= 20; attempt++) {
			await this.page.keyboard.press('F1');
			await input.waitFor({ state: 'visible', timeout: 10_000 });
			await input.fill(`>${title}`);
			try {
				await row.waitFor({ state: 'visible', timeout: 2_000 });
			} catch {
				await this.page.keyboard.press('Escape');
				continue;
			}
			await options.beforeRun?.();
			try {
				await row.click({ timeout: 5_000 });
			} catch (error) {
				// A page that takes the focus back (the walkthrough after a step ticks) closes the palette
				// before the click landed: the command did not run, open the palette again.
				if (await input.isVisible()) throw error;
				continue;
			}
			if (!options.opensInput) await input.waitFor({ state: 'hidden', timeout: 10_000 });
			return;
		}
		throw new Error(`command "${title}" did not appear in the palette`);
	}

	/**
	 * Waits for the quick input's prompt (an input box opened by a command) to contain `prompt`,
	 * types `text` into it and presses Enter.
	 */
	async answerInputBox(
		prompt: string | RegExp,
		text: string,
		options: { beforeEnter?: () => Promise<void> } = {},
	): Promise<void> {
		const widget = this.page.locator('.quick-input-widget');
		await widget
			.locator('.quick-input-message', { hasText: prompt })
			.waitFor({ state: 'visible', timeout: 15_000 });
		const input = widget.locator('input.input');
		await input.fill(text);
		await options.beforeEnter?.();
		await input.press('Enter');
		await input.waitFor({ state: 'hidden', timeout: 10_000 });
	}

	/**
	 * In an open quick pick titled `title`: types `filter`, waits for a row matching `row` (default:
	 * the filter) to be the first one, and presses Enter. Waiting for the title matters when one
	 * pick follows another: typing too early filters the closing one.
	 */
	async pickQuickItem(title: string | RegExp, filter: string, row: string | RegExp = filter): Promise<void> {
		const widget = this.page.locator('.quick-input-widget');
		const input = widget.locator('input.input');
		await widget
			.locator('.quick-input-title', { hasText: title })
			.waitFor({ state: 'visible', timeout: 15_000 });
		await input.waitFor({ state: 'visible', timeout: 15_000 });
		await input.fill(filter);
		try {
			await widget
				.locator('.quick-input-list .monaco-list-row')
				.first()
				.filter({ hasText: row })
				.waitFor({ timeout: 15_000 });
		} catch (error) {
			await input.fill('');
			await new Promise((resolve) => setTimeout(resolve, 500));
			const rows = await widget.locator('.quick-input-list .monaco-list-row').allTextContents();
			throw new Error(
				`no row ${String(row)} for "${filter}" in the quick pick; unfiltered rows: ${JSON.stringify(rows)}`,
				{ cause: error },
			);
		}
		await input.press('Enter');
	}

	/** Waits for a notification toast containing `text`; returns it. */
	async notification(text: string | RegExp, timeout = 15_000): Promise<string> {
		const toast = this.page.locator('.notifications-toasts .notification-toast', { hasText: text }).first();
		await toast.waitFor({ timeout });
		return (await toast.textContent()) ?? '';
	}

	/** The content frame of the `index`-th ready webview (two nested iframes in VS Code web). */
	webviewFrame(index = 0): FrameLocator {
		return this.page
			.locator('iframe.webview.ready')
			.nth(index)
			.contentFrame()
			.locator('iframe#active-frame')
			.contentFrame();
	}

	/**
	 * Waits in the panel's webview for `selector`; fails at once with the panel's own message when
	 * the host could only render its error page (`#panel-error`).
	 */
	async waitInPanel(selector: string, timeout = 30_000): Promise<void> {
		const frame = this.webviewFrame();
		await frame.locator(`${selector}, #panel-error`).first().waitFor({ timeout });
		const error = frame.locator('#panel-error');
		if (await error.count()) throw new Error(`the panel shows an error: ${await error.textContent()}`);
	}

	/**
	 * Waits until the secondary side bar is visible and shows the view container titled `title`, by
	 * the part's title label (kept in the DOM, hidden under the tab row, which may hold every
	 * container in "Additional Views" when the bar is narrow).
	 */
	async secondarySideBarShows(title: string, timeout = 15_000): Promise<void> {
		const bar = this.page.locator('.part.auxiliarybar');
		await bar
			.locator('.composite.title .title-label h2')
			.filter({ hasText: new RegExp(`^${title}$`) })
			.waitFor({ state: 'attached', timeout });
		await bar.waitFor({ state: 'visible', timeout });
	}

	/** Full-window screenshot into test-results/e2e/<name>.png; returns the path. */
	async screenshot(name: string): Promise<string> {
		mkdirSync(resultsDir, { recursive: true });
		const path = join(resultsDir, `${name}.png`);
		await this.page.screenshot({ path });
		return path;
	}

	async close(): Promise<void> {
		await this.context.close();
	}
}

export function workbenchUrl(server: CodeServer, options: OpenOptions): string {
	const query = options.workspaceFile
		? `workspace=${encodeURIComponent(options.workspaceFile)}`
		: `folder=${encodeURIComponent(options.folder)}`;
	return `${server.url}/?${query}`;
}

interface UriComponents {
	readonly scheme: string;
	readonly authority: string;
	readonly path: string;
}

/** What an embedder of the web workbench gives it: the extensions under development and the tests to run. */
export interface DevelopmentOptions {
	readonly extensions?: readonly UriComponents[];
	readonly extensionTestsPath?: UriComponents;
}

/**
 * The extension under development (default: the repo) and the in-host tests, as the web
 * workbench's `developmentOptions`. A built workbench (VS Code 1.139) reads the URL's `payload`
 * only with the smoke-test driver on, which also turns notification toasts off; the embedder's
 * options (what @vscode/test-web sets) load the extension the same way with the workbench unchanged.
 */
export function developmentOptions(server: CodeServer, options: OpenOptions): DevelopmentOptions {
	const remote = (path: string): UriComponents => ({
		scheme: 'vscode-remote',
		authority: server.authority,
		path,
	});
	const devPath =
		options.extensionDevelopmentPath === undefined ? repoRoot : options.extensionDevelopmentPath;
	return {
		...(devPath !== null
			? { extensions: [remote(devPath), ...(options.testExtensions ?? []).map(remote)] }
			: {}),
		// The extension host refuses a tests path without a development path.
		...(options.extensionTestsPath ? { extensionTestsPath: remote(options.extensionTestsPath) } : {}),
	};
}

/**
 * A script for the page, run before its own: merges `development` into the workbench configuration
 * (the `vscode-workbench-web-configuration` meta element's JSON) as the parser inserts it. The
 * parser runs pending microtasks before each script, so the observer's change lands before the
 * workbench reads it. The page stays as the server sent it (a route-fulfilled copy lost its WebSocket).
 */
function developmentOptionsScript(origin: string, development: DevelopmentOptions): string {
	return `(() => {
	if (location.origin !== ${JSON.stringify(origin)} || location.pathname !== '/') return;
	const development = ${JSON.stringify(development)};
	const observer = new MutationObserver(() => {
		const meta = document.getElementById('vscode-workbench-web-configuration');
		const settings = meta && meta.getAttribute('data-settings');
		if (!settings) return;
		const configuration = JSON.parse(settings);
		configuration.developmentOptions = { ...configuration.developmentOptions, ...development };
		meta.setAttribute('data-settings', JSON.stringify(configuration));
		observer.disconnect();
	});
	observer.observe(document, { childList: true, subtree: true });
})();`;
}
