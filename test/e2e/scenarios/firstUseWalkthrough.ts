import assert from 'node:assert/strict';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { massgenTab, repoRoot, type Workbench } from '../workbench';
import type { Scenario } from './scenario';

const openOnInstall = 'workbench.welcomePage.walkthroughs.openOnInstall';

/**
 * VS Code's "open a walkthrough on install" on for this window's extension host (the harness keeps
 * it off, and the next scenario's settings reset puts it back). The setting is machine-scoped: the
 * remote extension host reads it from the server's Machine settings, which sit beside the
 * workspace copies in the server's root. (The workbench's own opening stays off: User settings.)
 */
function allowWalkthroughs(folder: string): void {
	const file = join(folder, '..', 'user-data', 'Machine', 'settings.json');
	assert.ok(existsSync(file), `the harness's machine settings at ${file}`);
	const settings = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
	// By rename, as the harness writes it: a window must never read it half-written.
	writeFileSync(`${file}.tmp`, JSON.stringify({ ...settings, [openOnInstall]: true }, null, '\t'));
	renameSync(`${file}.tmp`, file);
}

const walkthroughTab = (workbench: Workbench) =>
	workbench.page.locator('.tabs-container .tab', { hasText: /Welcome|Walkthrough/ });

/**
 * The walkthrough shows our steps (its page is the active editor, in a window with no other) and
 * has settled: VS Code's page focuses its selected step 250 ms after it renders, whatever opened it.
 */
async function showsOurWalkthrough(workbench: Workbench): Promise<void> {
	await walkthroughTab(workbench).first().waitFor({ timeout: 30_000 });
	await workbench.page
		.locator('.getting-started-step .step-title', { hasText: 'Build your team' })
		.first()
		.waitFor({ timeout: 15_000 });
	await workbench.page.waitForFunction("document.activeElement?.closest('.getting-started-step')", null, {
		timeout: 15_000,
	});
}

/**
 * The first use of the extension opens its walkthrough (a fresh browser context is a user who never
 * used it): opening the MassGen view activates the extension, and the walkthrough opens at once.
 * Once per user: a second window of the same browser profile (another folder, so VS Code restores
 * nothing) opens the view and runs a command, and no walkthrough opens.
 */
export const walkthroughOnFirstView: Scenario = {
	name: 'walkthrough on first use: opening the MassGen view opens it; a second window of the same user does not',
	prepareWorkspace: allowWalkthroughs,
	async run(workbench, folder) {
		await workbench.waitForExplorer('hello.ts');
		assert.equal(await walkthroughTab(workbench).count(), 0, 'no walkthrough before the extension runs');
		await workbench.page.locator('.activitybar').getByRole('tab', { name: massgenTab }).click();
		await showsOurWalkthrough(workbench);

		const url = new URL(workbench.page.url());
		url.searchParams.set('folder', join(folder, 'src'));
		const page = await workbench.context.newPage();
		try {
			await page.goto(url.toString());
			const settings = await page
				.locator('#vscode-workbench-web-configuration')
				.getAttribute('data-settings');
			assert.ok(
				settings?.includes(`"path":${JSON.stringify(repoRoot)}`),
				`the second window loads the extension under development: ${settings}`,
			);
			await page.getByRole('treeitem', { name: 'hello.ts' }).first().waitFor({ timeout: 60_000 });
			await page.locator('.activitybar').getByRole('tab', { name: massgenTab }).click();
			const team = page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'Team' }) });
			await team.locator('.monaco-list-row').first().waitFor({ timeout: 30_000 });
			// A command of ours ends (where a first use would open it), then its own editor shows.
			await page.keyboard.press('F1');
			await page.locator('.quick-input-widget input.input').fill('>MassGen: Show Panel');
			await page
				.locator('.quick-input-list .monaco-list-row.focused', { hasText: 'MassGen: Show Panel' })
				.waitFor({ timeout: 15_000 });
			await page.keyboard.press('Enter');
			// The panel is the side bar view now: its page, not an editor tab.
			await page.locator('iframe.webview.ready').first().waitFor({ timeout: 30_000 });
			const tabs = await page.locator('.tabs-container .tab').allTextContents();
			assert.deepEqual(
				tabs.filter((tab) => /Welcome|Walkthrough/.test(tab)),
				[],
				'opened a second time',
			);
		} finally {
			await page.close();
		}
	},
};

/**
 * The first use is a command with its own inputs (Set API Key, as last session's failure): its
 * picker and key box keep the keyboard while they are up; the walkthrough opens once the command
 * is done. Run from the walkthrough's own button, Set API Key keeps the keyboard through its steps
 * (InputChain: a closing quick input gave the focus back to the walkthrough's step, which VS Code's
 * page focused again 250 ms later: a key typed there arrived as its first few characters). The Team
 * view then shows the key as stored, and after Remove Key as missing, by itself (SecretStorage's
 * change refreshes it).
 */
export const walkthroughAfterFirstCommand: Scenario = {
	name: 'walkthrough on first use: Set API Key first keeps its picker and key box; the walkthrough opens after; the Team view follows the key',
	prepareWorkspace: allowWalkthroughs,
	async run(workbench) {
		const { page } = workbench;
		const widget = page.locator('.quick-input-widget');
		const input = widget.locator('input.input');
		const typesIntoInput = async () =>
			assert.equal(
				await page.evaluate("document.activeElement?.closest('.quick-input-widget') !== null"),
				true,
				'the quick input has the keyboard focus',
			);
		await workbench.waitForExplorer('hello.ts');

		await workbench.runCommand('MassGen: Set API Key', { opensInput: true });
		await workbench.pickQuickItem('MassGen: Set API Key', 'Anthropic', /ANTHROPIC_API_KEY · not set/);
		await widget.locator('.quick-input-message', { hasText: 'secret storage' }).waitFor({ timeout: 15_000 });
		await typesIntoInput();
		// Typed as a user types, so a focus lost on the way would lose characters.
		await page.keyboard.type('sk-ant-e2e-first-use');
		assert.equal(await input.inputValue(), 'sk-ant-e2e-first-use');
		assert.equal(await walkthroughTab(workbench).count(), 0, 'no walkthrough while the key box is up');
		await page.keyboard.press('Enter');
		await workbench.notification('stored ANTHROPIC_API_KEY');
		await showsOurWalkthrough(workbench);

		// The walkthrough's own Set API Key button: its steps keep the keyboard (a key typed key by key
		// arrives whole), though each closing step gives the focus back to the walkthrough's page.
		const step = page.locator('.getting-started-step', { hasText: 'Set a key or use Copilot' });
		// The stored key ticks this step, and a step that ticks moves the walkthrough's focus to the next
		// one: wait for that before opening a quick input it would close.
		await step.locator('.codicon.complete[data-done-step-id]').waitFor({ timeout: 15_000 });
		await page.waitForFunction("document.activeElement?.closest('.getting-started-step.expanded') != null");
		// A click on the step already open focuses it again a moment later, after the focus check below
		// has passed: that late focus took the key box's keyboard. Click it only when it is not open.
		if ((await page.locator('.getting-started-step.expanded', { hasText: 'Set a key' }).count()) === 0) {
			await step.click();
		}
		await page.waitForFunction(
			"(document.activeElement?.closest('.getting-started-step.expanded')?.textContent ?? '').includes('Set a key')",
		);
		await step.getByText('Set API Key', { exact: true }).click();
		await workbench.pickQuickItem('MassGen: Set API Key', 'Anthropic', /ANTHROPIC_API_KEY · stored/);
		await workbench.pickQuickItem('MassGen: Anthropic API Key', 'Replace', 'Replace Key');
		await widget.locator('.quick-input-message', { hasText: 'secret storage' }).waitFor({ timeout: 15_000 });
		await page.keyboard.type('sk-ant-e2e-replaced-key', { delay: 40 });
		assert.equal(await input.inputValue(), 'sk-ant-e2e-replaced-key');
		await page.keyboard.press('Enter');
		await workbench.notification('stored ANTHROPIC_API_KEY');

		// The Team view shows the key as stored; removed again, the view says so by itself.
		await workbench.runCommand('View: Close All Editors');
		await page.locator('.activitybar').getByRole('tab', { name: massgenTab }).click();
		const team = page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'Team' }) });
		const claude = team.locator('.monaco-list-row', { hasText: 'claude/' });
		await claude
			.filter({ hasText: 'key stored in VS Code (ANTHROPIC_API_KEY)' })
			.waitFor({ timeout: 20_000 });
		await workbench.runCommand('MassGen: Set API Key', { opensInput: true });
		await workbench.pickQuickItem('MassGen: Set API Key', 'Anthropic', /ANTHROPIC_API_KEY · stored/);
		await workbench.pickQuickItem('MassGen: Anthropic API Key', 'Remove', 'Remove Key');
		await workbench.notification('removed the stored ANTHROPIC_API_KEY');
		await claude.filter({ hasText: 'no API key (set ANTHROPIC_API_KEY)' }).waitFor({ timeout: 20_000 });
	},
};
