import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Scenario } from './scenario';
import { massgenTab } from '../workbench';

const question = 'Where should a new contributor start?';

/**
 * A new user's first run with nothing set up (no key, no Copilot, no team config, the harness's
 * user settings): Ask Team → one short "No model yet" notification, not every provider's missing
 * key → Try the Demo Team → the same question runs on the scripted demo team, whose change all
 * three agents made (3 of 3). The Team view shows the default team without an error row for the
 * extension's own configs/default.yaml; the user's settings are left alone.
 */
export const firstRun: Scenario = {
	name: 'first run with no model: Ask Team → "No model yet" → Try the Demo Team runs the question; 3 of 3 agree; no error row for the shipped team',
	async run(workbench, folder) {
		const { page } = workbench;
		await workbench.waitForExplorer('hello.ts');

		await workbench.runCommand('MassGen: Ask Team', { opensInput: true });
		await workbench.answerInputBox(/read-only/, question);
		const text = await workbench.notification('No model yet', 30_000);
		const toast = page
			.locator('.notifications-toasts .notification-toast', { hasText: 'No model yet' })
			.first();
		// One short message: no list of every provider's variable.
		assert.doesNotMatch(text, /API_KEY|default\.yaml/, text);
		const buttons = await toast.locator('.monaco-button').allTextContents();
		// No VS Code chat model in this workbench, so no "Use Copilot".
		assert.deepEqual(buttons, ['Try the Demo Team', 'Set API Key']);
		await workbench.screenshot('first-run-01-no-model');

		await toast.getByRole('button', { name: 'Try the Demo Team' }).click();
		await workbench.waitInPanel('.lane');
		const frame = workbench.webviewFrame();
		assert.equal(
			await frame.locator('.question').textContent(),
			question,
			'the question the user typed runs',
		);
		await frame.locator('.winner-banner .winner-title strong').waitFor({ timeout: 30_000 });
		await frame.locator('.run-status', { hasText: /completed/i }).waitFor({ timeout: 30_000 });
		assert.deepEqual((await frame.locator('.lane .lane-id').allTextContents()).sort(), [
			'planner',
			'reviewer',
			'skeptic',
		]);

		// The winner's one change, made by all three agents' answers.
		const consensus = frame.locator('.consensus[data-agents][data-of]').first();
		await consensus.waitFor({ timeout: 30_000 });
		await consensus.scrollIntoViewIfNeeded();
		assert.deepEqual(
			[await consensus.getAttribute('data-agents'), await consensus.getAttribute('data-of')],
			['3', '3'],
		);
		await workbench.screenshot('first-run-02-demo-answered');
		assert.equal(existsSync(join(folder, 'CONTRIBUTING.md')), false, 'nothing written before Accept');

		// The Team view: the default team, each member saying why it is unavailable, the demo offered,
		// and no error row pointing into the extension's own files.
		await page.locator('.activitybar').getByRole('tab', { name: massgenTab }).click();
		const team = page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'Team' }) });
		const rows = team.locator('.monaco-list-row');
		await rows.filter({ hasText: 'Run demo team' }).waitFor({ timeout: 20_000 });
		await rows.filter({ hasText: 'no API key (set OPENAI_API_KEY)' }).waitFor({ timeout: 20_000 });
		const texts = await rows.allTextContents();
		assert.ok(!texts.some((row) => /default\.yaml:\d+:\d+|error:/.test(row)), JSON.stringify(texts));
		assert.equal(await team.locator('.codicon-error').count(), 0, 'no error icon in the Team view');
		await workbench.screenshot('first-run-03-team-view');

		// The demo was for this question: no team setting was written.
		const settings = join(folder, '.vscode', 'settings.json');
		assert.ok(!existsSync(settings) || !readFileSync(settings, 'utf8').includes('massgen.config'));
	},
};
