import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator } from 'playwright-core';
import { repoRoot, type Workbench } from '../workbench';
import type { Scenario } from './scenario';

const titles = (() => {
	const nls = JSON.parse(readFileSync(join(repoRoot, 'package.nls.json'), 'utf8')) as Record<string, string>;
	const ids = ['setupModel', 'buildTeam', 'askTeam', 'reviewChanges', 'openViews'];
	return ids.map((id) => nls[`walkthrough.${id}.title`]);
})();

/** The first webview frame that shows `selector`: the walkthrough's SVG media are webviews as the panel is. */
async function frameWith(workbench: Workbench, selector: string): Promise<FrameLocator> {
	for (let attempt = 0; attempt < 60; attempt++) {
		const count = await workbench.page.locator('iframe.webview.ready').count();
		for (let i = 0; i < count; i++) {
			const frame = workbench.webviewFrame(i);
			if (await frame.locator(selector).count()) return frame;
		}
		await workbench.page.waitForTimeout(500);
	}
	throw new Error(`no webview shows ${selector}`);
}

/**
 * The walkthrough as a user opens it (Welcome: Open Walkthrough…): it lists its steps, and with no
 * key the "Use the Demo Team" and "Ask Team" buttons run the keyless demo team. Screenshots in the
 * dark and the light theme (the next scenario starts from the harness's settings again).
 */
export const walkthrough: Scenario = {
	name: 'walkthrough: opened from Welcome, lists its steps, runs the demo team from its buttons',
	run: (workbench) => walk(workbench),
};

async function walk(workbench: Workbench): Promise<void> {
	const { page } = workbench;
	await workbench.waitForExplorer('hello.ts');
	const tabs = page.locator('.tabs-container .tab');

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
		const focused = `document.activeElement?.closest('.getting-started-step.expanded')?.textContent`;
		await page.waitForFunction(`(${focused} ?? '').includes(${JSON.stringify(title)})`);
	};

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

	// No key, no model: the step's buttons pick the demo team and ask it.
	await expanded.getByText('Use the Demo Team', { exact: true }).click();
	await workbench.pickQuickItem('MassGen: Select Team Config', 'demo', /demo.*scripted three-agent team/i);
	await workbench.notification('team config set to preset:demo');
	await expanded.getByText('Ask Team', { exact: true }).click();
	await workbench.answerInputBox(/read-only/, 'Which file should I read first?');
	const frame = await frameWith(workbench, '#ask-input');
	await frame.locator('.winner-banner .winner-title strong').waitFor({ timeout: 30_000 });
}
