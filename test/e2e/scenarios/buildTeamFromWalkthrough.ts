import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { builderStep } from './buildTeamKeyboard';
import { startLocalModelServer } from './localModelServer';
import type { Scenario } from './scenario';

const role = 'You check every claim against the code.';

/**
 * Build Team from the walkthrough's own button: each step keeps the keyboard with the walkthrough's
 * page behind it (a role typed key by key arrives whole, and the team is written), as Set API Key's
 * did not before its inputs became one chain.
 */
export const buildTeamFromWalkthrough: Scenario = {
	name: 'Build Team from the walkthrough’s button: each step keeps the keyboard',
	async run(workbench, folder) {
		const { page } = workbench;
		const local = await startLocalModelServer(['loopback-chat']);
		try {
			await workbench.waitForExplorer('hello.ts');
			await workbench.runCommand('Welcome: Open Walkthrough...', { opensInput: true });
			const input = page.locator('.quick-input-widget input.input');
			await input.fill('MassGen');
			await page
				.locator('.quick-input-list .monaco-list-row', { hasText: 'Get Started with MassGen' })
				.first()
				.waitFor({ timeout: 15_000 });
			await input.press('Enter');
			const step = page.locator('.getting-started-step', { hasText: 'Build your team' });
			await step.click();
			await page.waitForFunction(
				"(document.activeElement?.closest('.getting-started-step.expanded')?.textContent ?? '').includes('Build your team')",
			);
			await step.getByText('Build Team', { exact: true }).click();
			await builderStep(page, '1/6', 'Members of the team');
			await page
				.locator('.quick-input-list .monaco-list-row', { hasText: 'loopback-chat' })
				.waitFor({ timeout: 30_000 });
			for (const key of ['ArrowDown', 'Space', 'Enter']) await page.keyboard.press(key);
			await builderStep(page, '2/7', `Role of ${local.type}:loopback-chat`);
			await page.keyboard.type(role, { delay: 30 });
			assert.equal(await page.locator('.quick-input-widget input.input').inputValue(), role);
			await page.keyboard.press('Enter');
			for (const [counter, text] of [
				['3/7', 'Voting sensitivity'],
				['4/7', 'Answers per agent'],
				['5/7', 'Coordination timeout'],
				['6/7', 'Quorum'],
				['7/7', 'Where to keep the team'],
			] as const) {
				await builderStep(page, counter, text);
				await page.keyboard.press('Enter');
			}
			await page.locator('.tabs-container .tab', { hasText: 'config.yaml' }).waitFor({ timeout: 15_000 });
			assert.match(readFileSync(join(folder, '.massgen', 'config.yaml'), 'utf8'), new RegExp(role));
		} finally {
			await local.close();
		}
	},
};
