import assert from 'node:assert/strict';
import { installTeam, type Scenario } from './scenario';

/**
 * VS Code 1.139's own Language Models editor lists the teams our provider contributes (vendor
 * `massgen`), activating the extension for it. What it does not show: the Chat view's model picker
 * offers only "Sign in to use Copilot…" without Copilot, so a team cannot be picked and used there
 * in this workbench (docs/editor.md); sending a request is tested in-host (modelPicker.itest.ts).
 */
export const chatModelPicker: Scenario = {
	name: "VS Code's Language Models editor lists the MassGen teams; the Chat view's picker asks for Copilot",
	prepareWorkspace(folder) {
		installTeam(folder, 'test', 'fixtures', 'vscode', 'lm-tool-team.yaml');
	},
	async run(workbench) {
		await workbench.waitForExplorer('hello.ts');
		const page = workbench.page;
		await workbench.runCommand('Manage Language Models');
		const row = (name: string) => page.locator('.monaco-list-row', { hasText: name }).first();
		await row('MassGen: demo team (3 agents)').waitFor({ timeout: 30_000 });
		const names = await page.locator('.monaco-list-row', { hasText: /^MassGen: / }).allInnerTexts();
		assert.ok(
			names.some((text) => /MassGen: [\w.-]+ team \(2 agents\)/.test(text)),
			`the workspace's team is listed: ${JSON.stringify(names)}`,
		);
		await workbench.screenshot('chat-model-picker-01-language-models');
		await page.keyboard.press('Escape');
		await workbench.runCommand('Chat: Open Chat');
		const picker = page.locator('.part.auxiliarybar [aria-label^="Models"]').first();
		await picker.click({ timeout: 15_000 });
		const menu = page.locator('.action-widget').first();
		await menu.waitFor({ timeout: 15_000 });
		assert.match(await menu.innerText(), /Sign in to use Copilot/);
		assert.doesNotMatch(await menu.innerText(), /MassGen/);
		await workbench.screenshot('chat-model-picker-02-chat-view-picker');
	},
};
