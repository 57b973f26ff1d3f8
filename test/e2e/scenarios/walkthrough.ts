import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, type Workbench } from '../workbench';
import type { Scenario } from './scenario';

const titles = (() => {
	const nls = JSON.parse(readFileSync(join(repoRoot, 'package.nls.json'), 'utf8')) as Record<string, string>;
	const ids = ['setupModel', 'buildTeam', 'askTeam', 'reviewChanges', 'openViews'];
	return ids.map((id) => nls[`walkthrough.${id}.title`]);
})();

/** Waits until a webview shows `selector`: the walkthrough's SVG media are webviews as the panel is. */
async function frameWith(workbench: Workbench, selector: string): Promise<void> {
	for (let attempt = 0; attempt < 60; attempt++) {
		const count = await workbench.page.locator('iframe.webview.ready').count();
		for (let i = 0; i < count; i++) {
			const frame = workbench.webviewFrame(i);
			if (await frame.locator(selector).count()) return;
		}
		await workbench.page.waitForTimeout(500);
	}
	throw new Error(`no webview shows ${selector}`);
}

/**
 * The walkthrough as a user opens it (Welcome: Open Walkthrough…): it lists its steps, none ticked
 * before its outcome. A key picker cancelled ticks nothing; a key stored ticks "Set a key"; "Use
 * the Demo Team" runs the keyless demo team on a sample question (no config picker) and ticks "Ask
 * a first question" once the run completed; Accept Changes ticks "Review and accept" once the file
 * is written. "Build your team" stays unticked throughout. Screenshots in the dark and the light
 * theme (the next scenario starts from the harness's settings again).
 */
export const walkthrough: Scenario = {
	name: 'walkthrough: opened from Welcome, steps ticked only on success, "Use the Demo Team" runs the demo on a sample question',
	run: (workbench, folder) => walk(workbench, folder),
};

async function walk(workbench: Workbench, folder: string): Promise<void> {
	const { page } = workbench;
	await workbench.waitForExplorer('hello.ts');
	const tabs = page.locator('.tabs-container .tab');
	// Steps done in earlier windows of this profile are remembered by VS Code: start from none.
	await workbench.runCommand('Developer: Reset Welcome Page Walkthrough Progress');

	// Opened as a user finds it (Help → Welcome has it too): the palette's Welcome: Open Walkthrough….
	await workbench.runCommand('Welcome: Open Walkthrough...', { opensInput: true });
	const input = page.locator('.quick-input-widget input.input');
	await input.fill('MassGen');
	await page
		.locator('.quick-input-list .monaco-list-row', { hasText: 'Get Started with MassGen' })
		.first()
		.waitFor({ timeout: 15_000 });
	await input.press('Enter');
	const tab = tabs.filter({ hasText: /Welcome|Walkthrough|MassGen/ }).first();
	await tab.waitFor({ timeout: 30_000 });
	const steps = page.locator('.getting-started-step');
	await steps.first().waitFor({ timeout: 15_000 });
	assert.deepEqual(await page.locator('.getting-started-step .step-title').allTextContents(), titles);
	const expanded = page.locator('.getting-started-step.expanded');
	// VS Code focuses a selected step after its slide-in; a quick input opened before then would close.
	const select = async (title: string) => {
		await steps.filter({ hasText: title }).click();
		const focused = `document.activeElement?.closest('.getting-started-step.expanded')?.textContent ?? ''`;
		await page.waitForFunction(`(${focused}).includes(${JSON.stringify(title)})`);
	};
	/** The titles of the ticked steps, in order (VS Code's check mark: `.codicon.complete`). */
	const ticked = async () => {
		const done: string[] = [];
		for (const title of titles) {
			const mark = steps.filter({ hasText: title }).locator('.codicon[data-done-step-id]');
			if ((await mark.getAttribute('class'))?.split(/\s+/).includes('complete')) done.push(title);
		}
		return done;
	};
	const untilTicked = async (title: string) =>
		steps
			.filter({ hasText: title })
			.locator('.codicon.complete[data-done-step-id]')
			.waitFor({ timeout: 30_000 });
	// Nothing happened yet: no outcome step is ticked (the views step ticks when a MassGen view shows).
	assert.deepEqual(
		(await ticked()).filter((title) => title !== titles[4]),
		[],
	);

	// The "Build your team" step names the builder's command (whether or not it is registered yet).
	await select(titles[1]);
	await expanded.getByText('Build Team', { exact: true }).waitFor({ timeout: 10_000 });
	await frameWith(workbench, 'svg#build-team');
	await workbench.screenshot('walkthrough-dark');

	// The light theme, as a user switches it.
	await workbench.runCommand('Preferences: Toggle between Light/Dark Themes');
	await page.locator('.monaco-workbench.vs').waitFor({ timeout: 15_000 });
	await select(titles[2]);
	await expanded.getByText('Use the Demo Team', { exact: true }).waitFor({ timeout: 10_000 });
	await frameWith(workbench, 'svg#ask-team');
	await workbench.screenshot('walkthrough-light');

	// Set API Key cancelled at its key box: no key, no tick. A key stored: ticked.
	await select(titles[0]);
	await expanded.getByText('Set API Key', { exact: true }).click();
	await workbench.pickQuickItem('MassGen: Set API Key', 'Cerebras', /CEREBRAS_API_KEY · not set/);
	await page
		.locator('.quick-input-widget .quick-input-message', { hasText: 'secret storage' })
		.waitFor({ timeout: 15_000 });
	await page.keyboard.press('Escape');
	await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 10_000 });
	assert.deepEqual(
		(await ticked()).filter((title) => title !== titles[4]),
		[],
		'a cancelled key picker ticks nothing',
	);
	await select(titles[0]);
	await expanded.getByText('Set API Key', { exact: true }).click();
	await workbench.pickQuickItem('MassGen: Set API Key', 'Cerebras', /CEREBRAS_API_KEY · not set/);
	await workbench.answerInputBox('secret storage', 'csk-e2e-walkthrough');
	await workbench.notification('stored CEREBRAS_API_KEY');
	await untilTicked(titles[0]);

	// "Use the Demo Team": the demo team answers a sample question; no picker, no flag to type.
	await select(titles[2]);
	await expanded.getByText('Use the Demo Team', { exact: true }).click();
	// Each check finds its frame anew: a frame is found by its place among the page's webviews, and
	// the walkthrough's own media webviews come and go as its steps open (a frame found for one
	// check may be another webview by the next).
	await frameWith(workbench, '.winner-banner .winner-title strong');
	await frameWith(workbench, '.question:text-is("How should we document this project?")');
	await frameWith(workbench, '.run-status:has-text("Completed")');
	assert.equal(await page.locator('.quick-input-widget:visible').count(), 0, 'no picker opened');
	// The run's diff opens a moment after the run ends and covers the walkthrough: back to it after that.
	await page
		.locator('.tabs-container .tab', { hasText: 'CONTRIBUTING.md' })
		.first()
		.waitFor({ timeout: 30_000 });
	await tab.click();
	await untilTicked(titles[2]);
	assert.deepEqual(
		(await ticked()).filter((title) => title !== titles[4]),
		[titles[0], titles[2]],
		'a run completed; nothing accepted and no team written yet',
	);

	// Accept Changes writes the demo's CONTRIBUTING.md: "Review and accept a change" is done.
	await workbench.runCommand('MassGen: Accept Changes');
	for (let i = 0; i < 200 && !existsSync(join(folder, 'CONTRIBUTING.md')); i++) {
		await page.waitForTimeout(50);
	}
	assert.ok(existsSync(join(folder, 'CONTRIBUTING.md')), 'the accepted change is on disk');
	await tab.click();
	await untilTicked(titles[3]);
	assert.deepEqual(
		(await ticked()).filter((title) => title !== titles[4]),
		[titles[0], titles[2], titles[3]],
		'"Build your team" is not ticked: no team was written',
	);
	await workbench.screenshot('walkthrough-ticked');

	// The key is removed again (the next scenarios list keys as not set).
	await workbench.runCommand('MassGen: Set API Key', { opensInput: true });
	await workbench.pickQuickItem('MassGen: Set API Key', 'Cerebras', /CEREBRAS_API_KEY · stored/);
	await workbench.pickQuickItem('MassGen: Cerebras API Key', 'Remove', 'Remove Key');
	await workbench.notification('removed the stored CEREBRAS_API_KEY');
}
