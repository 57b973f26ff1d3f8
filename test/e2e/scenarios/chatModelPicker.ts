import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readEvents, runDirs } from '../../support/runDir';
import { installTeam, type Scenario } from './scenario';

const question = 'How should we document this project?';

/**
 * VS Code 1.139's own Language Models editor lists the teams our provider contributes (vendor
 * `massgen`), activating the extension for it. The Chat view's model picker offers only "Sign in
 * to use Copilot…" in Agent mode (it lists only models that call tools; ours declare none), and
 * the teams in Ask mode: picked there, a team answers in the Chat view through the Copilot Chat
 * extension VS Code 1.139 ships, signed out (docs/editor.md), its change waiting in the review.
 */
export const chatModelPicker: Scenario = {
	name: "VS Code's Language Models editor lists the MassGen teams; in the Chat view's Ask mode a picked team answers",
	prepareWorkspace(folder) {
		installTeam(folder, 'test', 'fixtures', 'vscode', 'lm-tool-team.yaml');
	},
	async run(workbench, folder) {
		await workbench.waitForExplorer('hello.ts');
		const page = workbench.page;
		await workbench.runCommand('Manage Language Models');
		const row = (name: string) => page.locator('.monaco-list-row', { hasText: name }).first();
		await row('MassGen: demo team (3 agents)').waitFor({ timeout: 30_000 });
		const names = await page.locator('.monaco-list-row', { hasText: /^MassGen: / }).allInnerTexts();
		const team = /MassGen: [\w.-]+ team \(2 agents\)/;
		assert.ok(
			names.some((text) => team.test(text)),
			`the workspace's team is listed: ${JSON.stringify(names)}`,
		);
		await workbench.screenshot('chat-model-picker-01-language-models');
		await page.keyboard.press('Escape');

		// Agent mode (the default): no model that calls tools, so only the sign-in.
		await workbench.runCommand('Chat: Open Chat');
		const chat = page.locator('.part.auxiliarybar');
		const picker = chat.locator('[aria-label^="Models"]').first();
		const menu = page.locator('.action-widget').first();
		await picker.click({ timeout: 15_000 });
		await menu.waitFor({ timeout: 15_000 });
		assert.match(await menu.innerText(), /Sign in to use Copilot/);
		assert.doesNotMatch(await menu.innerText(), /MassGen/);
		await workbench.screenshot('chat-model-picker-02-chat-view-picker');
		await page.keyboard.press('Escape');

		// Ask mode: the teams are the picker's models.
		const input = chat.locator('.interactive-input-part').first();
		for (let attempt = 1; !(await input.innerText()).split('\n').includes('Ask'); attempt++) {
			assert.ok(attempt <= 3, `no Ask mode: ${await input.innerText()}`);
			await workbench.runCommand('Chat: Switch to Next Agent');
		}
		await picker.click({ timeout: 15_000 });
		await menu.locator('.monaco-list-row', { hasText: 'MassGen: demo team (3 agents)' }).waitFor();
		const teamRow = menu.locator('.monaco-list-row', { hasText: team }).first();
		if (!(await teamRow.isVisible())) {
			await menu.locator('.monaco-list-row', { hasText: 'Other Models' }).first().click();
		}
		await workbench.screenshot('chat-model-picker-03-ask-mode-picker');
		await teamRow.click();
		await input.locator('.model-picker-name', { hasText: team }).first().waitFor({ timeout: 15_000 });

		// The input takes the keyboard once the picker's menu has let it go: type until it holds the question.
		const typed = input.locator('.interactive-input-editor .view-lines').first();
		const holds = async () => (await typed.innerText()).replace(/\s+/g, ' ').includes(question);
		for (let attempt = 1; !(await holds()); attempt++) {
			assert.ok(attempt <= 5, `the chat input did not take the question: ${await typed.innerText()}`);
			await typed.click({ force: true });
			await page.keyboard.press('ControlOrMeta+A');
			await page.keyboard.type(question);
		}
		await page.keyboard.press('Enter');
		// The run reveals the MassGen panel in the secondary side bar; the change waits in the review.
		await page.locator('.statusbar', { hasText: 'MassGen: 1 file to review' }).waitFor({ timeout: 60_000 });
		await workbench.runCommand('Chat: Open Chat');
		const response = chat.locator('.interactive-list', { hasText: 'Proposed changes' }).first();
		await response.waitFor({ timeout: 30_000 });
		const answer = await response.innerText();
		for (const expected of [
			'2 agents are answering…',
			/Vote: \w+ won with 2 of 2 votes/,
			/Proposed changes \(not applied; they wait for your review/,
			'add lm-tool/GUIDE.md',
		]) {
			assert.ok(
				typeof expected === 'string' ? answer.includes(expected) : expected.test(answer),
				`the Chat view shows ${String(expected)}: ${answer}`,
			);
		}
		await workbench.screenshot('chat-model-picker-04-team-answer');

		// The team was asked the user's words (not Copilot Chat's <prompt> wrapper); nothing written.
		const [run, ...others] = runDirs(folder);
		assert.ok(run && others.length === 0, 'one run');
		const start = readEvents(run).find((event) => event.type === 'run-start');
		assert.equal(start?.['question'], question);
		assert.equal(existsSync(join(folder, 'lm-tool', 'GUIDE.md')), false);
	},
};
