// The hooks a panel test file shares (vitest's): kept apart from the harness so that the benches,
// which run outside vitest, can import the harness's browser and server parts.
import type { BrowserContext } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { newPanelContext, openPanel, pageProblems, startHarness, type PanelPage } from './harness.js';

type Harness = Awaited<ReturnType<typeof startHarness>>;

/** The live objects of a test file that uses `usePanelPerTest` (read them inside hooks and tests). */
export interface PanelTestSession {
	readonly harness: Harness;
	readonly context: BrowserContext;
	/** Replaced by a test that reloads the page (`wrapPage`); the checks after it read the new one. */
	panel: PanelPage;
}

/**
 * The hooks every panel test file shares: one harness (bundle, server, browser) per file, a fresh
 * context and page per test (`afterOpen` runs on it first), and `pageProblems` empty after each.
 */
export function usePanelPerTest(
	options: {
		viewport?: { width: number; height: number };
		afterOpen?: (panel: PanelPage) => Promise<void>;
	} = {},
): PanelTestSession {
	let harness: Harness | undefined;
	let context: BrowserContext | undefined;
	let panel: PanelPage | undefined;
	const live = <T>(value: T | undefined, name: string): T => {
		if (value === undefined) throw new Error(`usePanelPerTest: ${name} is read outside a test`);
		return value;
	};
	beforeAll(async () => {
		harness = await startHarness();
	}, 60_000);
	afterAll(async () => {
		await harness?.close();
	});
	beforeEach(async () => {
		context = await newPanelContext(live(harness, 'harness').browser, options.viewport);
		panel = await openPanel(context, live(harness, 'harness').server);
		await options.afterOpen?.(panel);
	});
	afterEach(async () => {
		expect(await pageProblems(live(panel, 'panel'))).toEqual([]);
		await context?.close();
	});
	return {
		get harness() {
			return live(harness, 'harness');
		},
		get context() {
			return live(context, 'context');
		},
		get panel() {
			return live(panel, 'panel');
		},
		set panel(next: PanelPage) {
			panel = next;
		},
	};
}
