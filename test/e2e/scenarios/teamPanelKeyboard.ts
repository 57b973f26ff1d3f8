import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Workbench } from '../workbench';
import { installTeam, type Scenario } from './scenario';

const question = 'How should we document\nthis project?';

/** Page code as text (the root tsconfig has no DOM lib): what the webview's DOM shows, in order. */
const recordOrder = `(() => {
	const seen = [];
	const visible = (selector) => {
		const element = document.querySelector(selector);
		return element !== null && element.checkVisibility();
	};
	const note = () => {
		if (visible('.ask-starting') && !seen.includes('starting')) seen.push('starting');
		if (document.querySelector('.lane') && !seen.includes('lane')) {
			seen.push('lane');
			if (visible('.ask-starting')) seen.push('starting with lanes');
		}
		if (seen.includes('lane') && !visible('.ask-starting') && !seen.includes('starting gone')) seen.push('starting gone');
	};
	new MutationObserver(note).observe(document.body, { subtree: true, childList: true, attributes: true });
	window.__order = seen;
})()`;

/**
 * The boxes on screen: the view's page (VS Code lays webviews over the workbench, outside the
 * part's DOM), the secondary side bar and the editor area; whether the editor area covers the page.
 */
async function boxes(workbench: Workbench) {
	const view = await workbench.page.locator('iframe.webview.ready').first().boundingBox();
	const bar = await workbench.page.locator('.part.auxiliarybar').boundingBox();
	const editor = await workbench.page.locator('.part.editor').boundingBox();
	assert.ok(view && bar && editor, 'the view, the secondary side bar and the editor area have boxes');
	const overlap =
		view.x < editor.x + editor.width &&
		editor.x < view.x + view.width &&
		view.y < editor.y + editor.height &&
		editor.y < view.y + view.height;
	const inBar =
		view.x >= bar.x - 1 &&
		view.y >= bar.y - 1 &&
		view.x + view.width <= bar.x + bar.width + 1 &&
		view.y + view.height <= bar.y + bar.height + 1;
	return { view, bar, editor, overlap, inBar };
}

/**
 * The team's panel in the side bar, from the keyboard only: Ctrl+Alt+M (Focus Ask Box) from the
 * editor reveals the view with the keyboard in its ask box; Shift+Enter types a new line and
 * starts nothing; Enter asks, "Starting the team…" shows before the run's first event and goes
 * when the lanes arrive (the scripted team of test/fixtures/vscode). The view is in the secondary
 * side bar, where VS Code's Chat is when the window opens: the shortcut shows ours over it, and
 * after Chat's own shortcut again. A file opened from the Explorer does not cover the view.
 */
export const teamPanelKeyboard: Scenario = {
	name: 'side bar: Ctrl+Alt+M focuses the ask box, Shift+Enter is a new line, Enter starts the team ("Starting the team…" first); a file from the Explorer does not cover the view',
	prepareWorkspace(folder) {
		installTeam(folder, 'test', 'fixtures', 'vscode', 'team.yaml');
	},
	async run(workbench, folder) {
		const { page } = workbench;
		const runsDir = join(folder, '.massgen', 'runs');
		const runs = () => (existsSync(runsDir) ? readdirSync(runsDir) : []);
		await workbench.waitForExplorer('hello.ts');
		// An editor from the keyboard (Quick Open), with the focus.
		await page.keyboard.press('Control+P');
		await page.locator('.quick-input-widget input.input').fill('hello.ts');
		await page.locator('.quick-input-list .monaco-list-row', { hasText: 'hello.ts' }).first().waitFor();
		await page.keyboard.press('Enter');
		await page.locator('.editor-instance .monaco-editor.focused').waitFor({ timeout: 15_000 });

		// VS Code's own Chat holds the secondary side bar when the window opens.
		await workbench.secondarySideBarShows('Chat');
		// The shortcut: our view takes the secondary side bar over Chat and its ask box has the keyboard.
		await page.keyboard.press('Control+Alt+M');
		await workbench.secondarySideBarShows('MassGen Team');
		await workbench.waitInPanel('#ask-input');
		const frame = workbench.webviewFrame();
		await frame.locator('#ask-input:focus').waitFor({ timeout: 15_000 });
		assert.equal(await page.locator('.monaco-editor.focused').count(), 0, 'the editor gave up the keyboard');
		assert.equal(
			await page.locator('.tabs-container .tab', { hasText: 'MassGen' }).count(),
			0,
			'a view in the side bar, not an editor tab',
		);
		await workbench.screenshot('team-panel-01-focused');

		// Typed on the page's keyboard: it lands in the ask box. Shift+Enter is a new line, not a question.
		await page.keyboard.type('How should we document');
		await page.keyboard.press('Shift+Enter');
		await page.keyboard.type('this project?');
		const value = () =>
			frame.locator('#ask-input').evaluate((element) => (element as unknown as { value: string }).value);
		assert.equal(await value(), question);
		assert.deepEqual(runs(), [], 'Shift+Enter started nothing');
		assert.equal(await frame.locator('.ask-starting').isVisible(), false);
		await workbench.screenshot('team-panel-02-two-lines');

		// Enter asks: the starting line first (before any event), then the lanes replace it.
		await frame.locator('body').evaluate(recordOrder);
		await page.keyboard.press('Enter');
		await frame.locator('.lane').nth(2).waitFor({ timeout: 60_000 });
		await frame.locator('.ask-starting').waitFor({ state: 'hidden', timeout: 10_000 });
		const order = (await frame.locator('body').evaluate('window.__order')) as string[];
		assert.deepEqual(
			order,
			['starting', 'lane', 'starting gone'],
			`what the page showed, in order: ${order}`,
		);
		assert.equal(await frame.locator('.question').textContent(), question);
		assert.equal(await value(), '', 'the box is empty after asking');
		await workbench.screenshot('team-panel-03-lanes');
		await frame.locator('.run-status', { hasText: /completed/i }).waitFor({ timeout: 60_000 });
		assert.equal(runs().length, 1);

		// Chat and our view take turns in the secondary side bar: Ctrl+Alt+I shows Chat, Ctrl+Alt+M ours
		// again, with the run and the keyboard in the ask box.
		await page.keyboard.press('Control+Alt+I');
		await workbench.secondarySideBarShows('Chat');
		await frame.locator('#ask-input').waitFor({ state: 'detached', timeout: 15_000 });
		await page.keyboard.press('Control+Alt+M');
		await workbench.secondarySideBarShows('MassGen Team');
		await workbench.waitInPanel('.lane');
		await workbench.webviewFrame().locator('#ask-input:focus').waitFor({ timeout: 15_000 });
		// A file opened from the Explorer opens in the editor area beside the view, not over it.
		await page.keyboard.press('Control+Shift+E');
		await workbench.openInEditor('README.md');
		await page.locator('.tabs-container .tab.active', { hasText: 'README.md' }).waitFor();
		const after = await boxes(workbench);
		assert.equal(
			after.inBar,
			true,
			`the view ${JSON.stringify(after.view)} in the bar ${JSON.stringify(after.bar)}`,
		);
		assert.equal(
			after.overlap,
			false,
			`the editor ${JSON.stringify(after.editor)} covers the view ${JSON.stringify(after.view)}`,
		);
		assert.ok(
			after.view.width >= 200 && after.view.height >= 300,
			`the view is shown: ${JSON.stringify(after.view)}`,
		);
		assert.ok(await workbench.webviewFrame().locator('.lane').first().isVisible(), 'its lanes are on screen');
		await workbench.screenshot('team-panel-04-explorer-file-beside-view');
	},
};
