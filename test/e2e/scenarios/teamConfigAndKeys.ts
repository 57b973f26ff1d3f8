import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Scenario } from './scenario';

/**
 * The set-up commands, like a user, in a workspace without any team config: Set API Key stores a
 * key (password box) and removes it again; Select Team Config picks the shipped "demo" preset, and
 * Ask Team then runs that team; Open Run Log opens the run's final answer in an editor.
 */
export const teamConfigAndKeys: Scenario = {
	name: 'palette: Set API Key (store, remove), Select Team Config (demo preset) → Ask Team, Open Run Log',
	async run(workbench, folder) {
		const { page } = workbench;
		await workbench.waitForExplorer('hello.ts');

		// Set API Key: provider → password box → stored.
		await workbench.runCommand('MassGen: Set API Key', { opensInput: true });
		await workbench.pickQuickItem('MassGen: Set API Key', 'Cerebras', /CEREBRAS_API_KEY · not set/);
		const widget = page.locator('.quick-input-widget');
		await widget.locator('.quick-input-message', { hasText: 'secret storage' }).waitFor({ timeout: 15_000 });
		assert.equal(
			await widget.locator('input.input').getAttribute('type'),
			'password',
			'the key is typed into a password box',
		);
		await widget.locator('input.input').fill('csk-e2e-secret-123');
		await workbench.screenshot('setup-01-api-key');
		await widget.locator('input.input').press('Enter');
		await workbench.notification('stored CEREBRAS_API_KEY');

		// …shown as stored next time, and removed.
		await workbench.runCommand('MassGen: Set API Key', { opensInput: true });
		await workbench.pickQuickItem('MassGen: Set API Key', 'Cerebras', /CEREBRAS_API_KEY · stored/);
		await workbench.pickQuickItem('MassGen: Cerebras API Key', 'Remove', 'Remove Key');
		await workbench.notification('removed the stored CEREBRAS_API_KEY');

		// Select Team Config: the shipped demo preset, written to the workspace settings.
		await workbench.runCommand('MassGen: Select Team Config', { opensInput: true });
		await widget
			.locator('.quick-input-list .monaco-list-row', { hasText: 'Automatic' })
			.waitFor({ timeout: 15_000 });
		await workbench.screenshot('setup-02-team-config');
		await workbench.pickQuickItem('MassGen: Select Team Config', 'demo', /demo.*scripted three-agent team/i);
		await workbench.notification('team config set to preset:demo');
		const settings = JSON.parse(readFileSync(join(folder, '.vscode', 'settings.json'), 'utf8')) as Record<
			string,
			unknown
		>;
		assert.equal(settings['massgen.config'], 'preset:demo');

		// Ask Team now runs the demo team.
		await workbench.runCommand('MassGen: Ask Team', { opensInput: true });
		await workbench.answerInputBox(/read-only/, 'Which docs first?');
		await workbench.waitInPanel('.lane');
		const frame = workbench.webviewFrame();
		await frame.locator('.winner-banner .winner-title strong').waitFor({ timeout: 30_000 });
		assert.deepEqual((await frame.locator('.lane .lane-id').allTextContents()).sort(), [
			'planner',
			'reviewer',
			'skeptic',
		]);

		// Open Run Log: the run → its final answer, in an editor. (The log's end files are written
		// just after the last event, so wait for them as a user would wait for the run to end.)
		await frame.locator('.run-status', { hasText: /completed/i }).waitFor({ timeout: 30_000 });
		const runs = readdirSync(join(folder, '.massgen', 'runs'));
		assert.equal(runs.length, 1);
		const finalAnswer = join(folder, '.massgen', 'runs', runs[0]!, 'final-answer.md');
		for (let i = 0; i < 100 && !existsSync(finalAnswer); i++) {
			await new Promise((resolve) => setTimeout(resolve, 50));
		}
		await workbench.runCommand('MassGen: Open Run Log', { opensInput: true });
		await workbench.pickQuickItem('MassGen: Open Run Log', 'Which docs first?');
		await workbench.pickQuickItem('MassGen: “Which docs first?”', 'Final Answer', 'final-answer.md');
		const tab = page.locator('.tabs-container .tab', { hasText: 'final-answer.md' });
		await tab.waitFor({ timeout: 15_000 });
		await page
			.locator('.monaco-editor .view-lines', { hasText: 'CONTRIBUTING.md' })
			.first()
			.waitFor({ timeout: 15_000 });
		await workbench.screenshot('setup-03-run-log');
	},
};
