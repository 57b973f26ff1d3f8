import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hashTree } from '../../support/tempTree';
import { installTeam, type Scenario } from './scenario';

const task = 'Add a --verbose flag to the CLI';

/**
 * Like a user, from the keyboard (docs/editor.md, Plans): Ctrl+Alt+M gives the panel's ask box the
 * keyboard, the task is typed, Tab reaches the Plan toggle and Space presses it (aria-pressed), Enter
 * in the box makes the plan. The scripted planning team (test/fixtures/plans/planningTeam.yaml) plans read-only: the
 * plan document .massgen/plans/<run id>.md opens in an editor with each step's agreement mark
 * ("Parse the flag" is in all three plans), nothing else in the workspace is written, and the
 * document's CodeLens "Other plans (2)" opens a runner-up's plan beside it.
 */
export const planToggle: Scenario = {
	name: 'ask box: the Plan toggle from the keyboard → the plan document opens with agreement marks; Other plans opens a runner-up’s',
	prepareWorkspace(folder) {
		installTeam(folder, 'test', 'fixtures', 'plans', 'planningTeam.yaml');
	},
	async run(workbench, folder) {
		const { page } = workbench;
		const plansDir = join(folder, '.massgen', 'plans');
		await workbench.waitForExplorer('hello.ts');
		await page.keyboard.press('Control+P');
		await page.locator('.quick-input-widget input.input').fill('hello.ts');
		await page.locator('.quick-input-list .monaco-list-row', { hasText: 'hello.ts' }).first().waitFor();
		await page.keyboard.press('Enter');
		await page.locator('.editor-instance .monaco-editor.focused').waitFor({ timeout: 15_000 });
		const outsideMassgen = () => hashTree(folder, (rel) => rel === '.massgen');
		const before = outsideMassgen();

		await page.keyboard.press('Control+Alt+M');
		await workbench.waitInPanel('#ask-input');
		const frame = workbench.webviewFrame();
		await frame.locator('#ask-input:focus').waitFor({ timeout: 15_000 });
		await page.keyboard.type(task);
		const toggle = frame.locator('#ask-plan');
		assert.equal(await toggle.getAttribute('aria-pressed'), 'false');
		// Tab from the box: the "+" button, then the toggle.
		for (let i = 0; i < 6; i++) {
			if (await frame.locator('#ask-plan:focus').count()) break;
			await page.keyboard.press('Tab');
		}
		await frame.locator('#ask-plan:focus').waitFor({ timeout: 5_000 });
		await page.keyboard.press('Space');
		assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
		assert.equal(await frame.locator('#ask-button').textContent(), 'Plan');
		await workbench.screenshot('plan-toggle-01-pressed');
		// Back to the box (Shift+Tab over the "+" button) and Enter makes the plan.
		for (let i = 0; i < 6; i++) {
			if (await frame.locator('#ask-input:focus').count()) break;
			await page.keyboard.press('Shift+Tab');
		}
		await frame.locator('#ask-input:focus').waitFor({ timeout: 5_000 });
		await page.keyboard.press('Enter');

		// The run shows in the panel as any run, then the plan document opens in an editor.
		await frame.locator('.lane').nth(2).waitFor({ timeout: 60_000 });
		const tab = page.locator('.tabs-container .tab', { hasText: /^\d{8}-\d{6}-[0-9a-z]{4}\.md/ }).first();
		await tab.waitFor({ timeout: 60_000 });
		const saved = readdirSync(plansDir);
		assert.equal(saved.length, 1, `one plan: ${saved.join(', ')}`);
		const text = readFileSync(join(plansDir, saved[0]!), 'utf8');
		assert.match(text, /^---\nmassgen: plan\n/);
		assert.match(text, new RegExp(`task: "${task}"`));
		assert.match(text, /^- \[ \] \*\*Parse the flag\*\* · 3 of 3$/m);
		const marks = text.split('\n').filter((line) => line.startsWith('- [ ] '));
		assert.ok(
			marks.every((line) => / · (\d of 3|only the winner)$/.test(line)),
			`every step marked: ${marks.join(' | ')}`,
		);
		const editor = page.locator('.editor-instance .monaco-editor').first();
		await editor.locator('.view-line', { hasText: 'Parse the flag' }).first().waitFor({ timeout: 15_000 });
		assert.equal(outsideMassgen(), before, 'nothing outside .massgen/ was written');
		await workbench.screenshot('plan-toggle-02-document');

		// Its CodeLens: the runner-up plans, one picked, opened read-only beside the plan.
		const lens = page.locator('.codelens-decoration a', { hasText: 'Other plans (2)' }).first();
		await lens.waitFor({ timeout: 15_000 });
		await lens.click();
		const widget = page.locator('.quick-input-widget');
		await widget.locator('.quick-input-title', { hasText: 'Other Plans' }).waitFor({ timeout: 15_000 });
		const rows = await widget.locator('.quick-input-list .monaco-list-row').allTextContents();
		assert.equal(rows.length, 2, `two runner-ups: ${rows.join(' | ')}`);
		await page.keyboard.press('Enter');
		await page
			.locator('.editor-instance .view-line', { hasText: 'A plan the team did not' })
			.first()
			.waitFor({ timeout: 15_000 });
		await workbench.screenshot('plan-toggle-03-other-plan');
	},
};
