import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { repoRoot, type Workbench } from '../workbench';
import { startLocalModelServer } from './localModelServer';
import type { Scenario } from './scenario';

/** The palette by keyboard only: F1, the title typed, Enter on the first row once it is that command. */
async function paletteByKeyboard(page: Page, title: string): Promise<void> {
	const input = page.locator('.quick-input-widget input.input');
	const first = page.locator('.quick-input-list .monaco-list-row.focused', { hasText: title });
	for (let attempt = 1; attempt <= 20; attempt++) {
		await page.keyboard.press('F1');
		await input.waitFor({ state: 'visible', timeout: 10_000 });
		await page.keyboard.type(title);
		// Another command may match the typed title as well (the MassGen Team view's Focus on …):
		// ↓ to the row that is this command.
		const rows = page.locator('.quick-input-list .monaco-list-row');
		try {
			await rows.first().waitFor({ state: 'visible', timeout: 2_000 });
			for (let down = 0; down < 5 && !(await first.isVisible()); down++) {
				await page.keyboard.press('ArrowDown');
			}
			await first.waitFor({ state: 'visible', timeout: 2_000 });
		} catch {
			await page.keyboard.press('Escape');
			continue;
		}
		await page.keyboard.press('Enter');
		return;
	}
	throw new Error(`command "${title}" did not appear in the palette`);
}

/** Waits for the builder's step `step` (its "n/m" counter) and the prompt or placeholder text. */
export async function builderStep(page: Page, step: string, text: string | RegExp): Promise<void> {
	const widget = page.locator('.quick-input-widget');
	await widget.locator('.quick-input-title', { hasText: `MassGen: Build Team (${step})` }).waitFor({
		timeout: 15_000,
	});
	const prompt = widget.locator('.quick-input-message', { hasText: text });
	const placeholder = widget.locator(`input.input[placeholder*="${String(text)}"]`);
	await prompt.or(placeholder).first().waitFor({ timeout: 15_000 });
}

/**
 * Build Team from the palette by keyboard alone, with a local model server answering on its usual
 * port (Ollama's): two of its models checked, a role typed for each, strict voting by arrows, an
 * answer cap typed, the timeout taken with Enter, a majority quorum by arrow, the place with Enter. The written .massgen/config.yaml
 * passes `dist/cli.js validate`, the Team view lists both agents as answering; Remove Agent asks
 * first (Escape keeps the agent, Remove takes it out of the file). The team runs in the panel.
 * Screenshots for the README: the Team view and the panel, dark and light (`readme-*.png`).
 */
export const buildTeamKeyboard: Scenario = {
	name: 'Build Team by keyboard: a local server’s models, roles, options → a config that validates, the Team view',
	async run(workbench, folder) {
		const local = await startLocalModelServer(['loopback-chat', 'loopback-mini']);
		try {
			await build(workbench, folder, local.type);
		} finally {
			await local.close();
		}
	},
};

async function build(workbench: Workbench, folder: string, type: string): Promise<void> {
	const { page } = workbench;
	const keys = async (...pressed: string[]) => {
		for (const key of pressed) await page.keyboard.press(key);
	};
	// The pointer off anything with a hover, so no tooltip covers the README's screenshots.
	const shot = async (name: string) => {
		await page.mouse.move(10, 600);
		await workbench.screenshot(name);
	};
	await workbench.waitForExplorer('hello.ts');
	await paletteByKeyboard(page, 'MassGen: Build Team');

	// Members: both models of the local server; the arrow moves into the list, Space checks a row.
	await builderStep(page, '1/6', 'Members of the team');
	const rows = page.locator('.quick-input-list .monaco-list-row');
	const group = `${type} at http://localhost:`;
	await rows.filter({ hasText: 'loopback-mini' }).filter({ hasText: group }).waitFor({ timeout: 30_000 });
	await page.keyboard.type('loopback');
	await keys('ArrowDown', 'Space', 'ArrowDown', 'Space');
	assert.equal(await page.locator('.quick-input-list .monaco-list-row[aria-checked="true"]').count(), 2);
	await keys('Enter');
	// A role each (typed), strict voting (two arrows down), a cap of 2 answers, the default timeout.
	await builderStep(page, '2/8', `Role of ${type}:loopback-chat`);
	await page.keyboard.type('You propose the plan.');
	await keys('Enter');
	await builderStep(page, '3/8', `Role of ${type}:loopback-mini`);
	await page.keyboard.type('You look for what the plan misses.');
	await keys('Enter');
	await builderStep(page, '4/8', 'Voting sensitivity');
	await rows.filter({ hasText: 'strict' }).waitFor({ timeout: 15_000 });
	await keys('ArrowDown', 'ArrowDown');
	await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: 'strict' }).waitFor();
	await keys('Enter');
	await builderStep(page, '5/8', 'Answers per agent');
	await page.keyboard.type('2');
	await keys('Enter');
	await builderStep(page, '6/8', 'Coordination timeout');
	await keys('Enter');
	// A quorum: majority (one arrow down from Off, the default).
	await builderStep(page, '7/8', 'Quorum');
	await rows.filter({ hasText: 'majority' }).waitFor({ timeout: 15_000 });
	await keys('ArrowDown');
	await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: 'majority' }).waitFor();
	await keys('Enter');
	await builderStep(page, '8/8', 'Where to keep the team');
	await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: 'This workspace' }).waitFor();
	await keys('Enter');

	// The written file validates with the CLI (as a user would check it in a terminal).
	const config = join(folder, '.massgen', 'config.yaml');
	await page.locator('.tabs-container .tab', { hasText: 'config.yaml' }).waitFor({ timeout: 15_000 });
	const text = readFileSync(config, 'utf8');
	assert.match(text, /^# Written by MassGen: Build Team\./);
	assert.match(text, /system_message: You look for what the plan misses\./);
	assert.match(text, /quorum: majority/);
	const validate = spawnSync(process.execPath, [join(repoRoot, 'dist', 'cli.js'), 'validate', config], {
		cwd: folder,
		encoding: 'utf8',
	});
	assert.equal(validate.status, 0, `validate: ${validate.stdout}${validate.stderr}`);

	// The Team view lists both agents, each answering on the local server.
	await paletteByKeyboard(page, 'MassGen: Focus on Team View');
	const tree = page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'Team' }) });
	const agent = (id: string) => tree.locator('.monaco-list-row', { hasText: id });
	for (const id of ['loopback-chat', 'loopback-mini']) {
		await agent(id)
			.filter({ hasText: `${type} server answering` })
			.waitFor({ timeout: 20_000 });
	}
	// A wider side bar, so the screenshots show the rows' reasons whole (the sash dragged, as a user would).
	const bar = await page.locator('.part.sidebar').boundingBox();
	if (bar) {
		await page.mouse.move(bar.x + bar.width + 1, bar.y + 200);
		await page.mouse.down();
		await page.mouse.move(bar.x + bar.width + 260, bar.y + 200, { steps: 5 });
		await page.mouse.up();
	}
	await shot('readme-team-dark');

	// The team runs (through the local server); the panel and the Team view in both themes for the README.
	await workbench.runCommand('View: Close All Editors');
	await workbench.runCommand('MassGen: Ask Team', { opensInput: true });
	await workbench.answerInputBox(/read-only/, 'How should hello.ts greet someone with no name?');
	await workbench.waitInPanel('.lane');
	const frame = workbench.webviewFrame();
	await frame.locator('.run-status', { hasText: /completed/i }).waitFor({ timeout: 60_000 });
	assert.deepEqual((await frame.locator('.lane .lane-id').allTextContents()).sort(), [
		'loopback-chat',
		'loopback-mini',
	]);
	await shot('readme-panel-dark');
	await workbench.runCommand('Preferences: Toggle between Light/Dark Themes');
	await page.locator('.monaco-workbench.vs').waitFor({ timeout: 15_000 });
	await shot('readme-panel-light');
	await workbench.runCommand('View: Close All Editors');
	await workbench.runCommand('MassGen: Open Team Config');
	await page.locator('.tabs-container .tab', { hasText: 'config.yaml' }).waitFor({ timeout: 15_000 });
	await shot('readme-team-light');

	// The run showed the team's view in the secondary side bar; the Team view stays in the primary one.
	// Remove Agent asks first: Escape keeps the agent; Remove takes it out of the file.
	const removeButton = agent('loopback-mini').locator('.action-label[aria-label="Remove Agent"]');
	const dialog = page.locator('.monaco-dialog-box', { hasText: "Remove agent 'loopback-mini'" });
	await agent('loopback-mini').hover();
	await removeButton.click();
	await dialog.waitFor({ timeout: 15_000 });
	await keys('Escape');
	await dialog.waitFor({ state: 'hidden', timeout: 10_000 });
	assert.match(readFileSync(config, 'utf8'), /model: loopback-mini/);
	await agent('loopback-mini').hover();
	await removeButton.click();
	await dialog.locator('.dialog-buttons .monaco-button', { hasText: 'Remove' }).click();
	await agent('loopback-mini').waitFor({ state: 'detached', timeout: 15_000 });
	assert.doesNotMatch(readFileSync(config, 'utf8'), /loopback-mini/);
	assert.match(readFileSync(config, 'utf8'), /model: loopback-chat/);
}
