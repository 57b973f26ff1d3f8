/**
 * View state survives a reload (VS Code keeps `setState` data; the host resends the snapshot):
 * collapsed and opened sections, the draft question, and scroll positions.
 */
import { describe, expect, it } from 'vitest';
import { reduceRunEvents } from '../../../src/protocol/reduceRun.js';
import { initialRunState } from '../../../src/protocol/runState.js';
import { richRunEvents } from '../../fixtures/webview/richRun.js';
import { pastRuns, waitForExpression, wrapPage } from './harness.js';
import { usePanelPerTest } from './panelSession.js';

const ui = usePanelPerTest({ viewport: { width: 1100, height: 700 } });

const isOpen = (selector: string) =>
	ui.panel.page
		.locator(selector)
		.first()
		.evaluate((element) => (element as unknown as { open: boolean }).open);

describe('webview view state', () => {
	it('restores collapsed sections, opened details, the draft question and the page scroll after a reload', async () => {
		const state = reduceRunEvents(initialRunState(), richRunEvents('end'));
		const snapshot = { type: 'snapshot', state, runs: pastRuns() } as const;
		await ui.panel.send(snapshot);
		const page = ui.panel.page;

		expect(await isOpen('#votes > details')).toBe(true);
		await page.locator('#votes > details > summary').click();
		await page.locator('#runs > details > summary').click();
		await page.locator('section.lane[data-agent="claude"] .lane-reasoning > summary').click();
		await page
			.locator('section.lane[data-agent="gemini"] .tool-call', { hasText: 'load.ts' })
			.locator('summary')
			.click();
		await page.locator('section.lane[data-agent="gpt"] .answer > summary').click();
		await page.locator('#ask-input').click();
		await page.keyboard.type('Draft: what about YAML anchors?');
		await page.evaluate('window.scrollTo(0, 400)');
		await waitForExpression(page, 'window.scrollY === 400');
		// The view state is saved within 250 ms (and on pagehide).
		await new Promise((resolve) => setTimeout(resolve, 400));
		const saved = (await page.evaluate('JSON.parse(sessionStorage.getItem("vscode-state"))')) as {
			open: Record<string, boolean>;
			draft: string;
		};
		expect(saved.draft).toBe('Draft: what about YAML anchors?');
		expect(saved.open['section:votes']).toBe(false);

		await page.reload();
		await waitForExpression(page, 'window.__posted.length > 0');
		const reloaded = wrapPage(page, ui.panel.consoleErrors);
		expect(await reloaded.posted()).toEqual([{ type: 'ready' }]);
		await reloaded.send(snapshot);
		await reloaded.frames(3);

		expect(await isOpen('#votes > details')).toBe(false);
		expect(await isOpen('#runs > details')).toBe(false);
		expect(await isOpen('#agents > details')).toBe(true);
		expect(await isOpen('section.lane[data-agent="claude"] .lane-reasoning')).toBe(true);
		await expect(
			page.locator('section.lane[data-agent="claude"] .reasoning-stream').textContent(),
		).resolves.toContain('agent3.1 keeps every issue');
		expect(
			await page
				.locator('section.lane[data-agent="gemini"] .tool-call', { hasText: 'load.ts' })
				.evaluate((d) => (d as unknown as { open: boolean }).open),
		).toBe(true);
		expect(await isOpen('section.lane[data-agent="gpt"] .answer')).toBe(true);
		await expect(
			page.locator('section.lane[data-agent="gpt"] .answer .markdown h2').textContent(),
		).resolves.toBe('Proposal');
		expect(await isOpen('section.lane[data-agent="grok"] .lane-reasoning')).toBe(false);
		await expect(
			page.locator('#ask-input').evaluate((element) => (element as unknown as { value: string }).value),
		).resolves.toBe('Draft: what about YAML anchors?');
		expect(await page.evaluate('window.scrollY')).toBe(400);
		ui.panel = reloaded;
		await ui.panel.screenshot('after-reload', false);
	});

	it('forgets per-run choices when another run is shown, keeps section choices', async () => {
		const rich = reduceRunEvents(initialRunState(), richRunEvents('end'));
		await ui.panel.send({ type: 'snapshot', state: rich, runs: [] });
		const page = ui.panel.page;
		await page.locator('section.lane[data-agent="gpt"] .answer > summary').click();
		await page.locator('#votes > details > summary').click();
		const other = reduceRunEvents(
			initialRunState(),
			richRunEvents('end').map((event) => ({ ...event, runId: '20260115-101501-next' })),
		);
		await ui.panel.send({ type: 'snapshot', state: other, runs: [] });
		expect(await isOpen('section.lane[data-agent="gpt"] .answer')).toBe(false);
		expect(await isOpen('#votes > details')).toBe(false);
	});
});
