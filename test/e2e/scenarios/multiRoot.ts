import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Workbench } from '../workbench';
import { installTeam, type Scenario } from './scenario';

const runsOf = (folder: string): string[] => {
	const runs = join(folder, '.massgen', 'runs');
	return existsSync(runs) ? readdirSync(runs) : [];
};

/** Waits for the panel's run of `question` to complete. */
async function completed(workbench: Workbench, question: string): Promise<void> {
	await workbench.waitInPanel('.lane');
	const frame = workbench.webviewFrame();
	await frame.locator('.question', { hasText: question }).waitFor({ timeout: 30_000 });
	await frame.locator('.run-status', { hasText: /completed/i }).waitFor({ timeout: 60_000 });
}

/**
 * Multi-root (docs/editor.md), like a user: a workspace of two folders, alpha (the usual files) and beta,
 * each with the keyless demo team. F1 → "MassGen: Ask Team" with no editor open asks which folder;
 * beta picked, the run works there (its run directory is in beta's .massgen/runs, none in alpha's).
 * Then, with alpha's hello.ts open, Ask Team asks no folder: the run works on alpha.
 */
export const multiRoot: Scenario = {
	name: 'multi-root: Ask Team asks which folder, or takes the active editor’s; each run lives in its folder',
	prepareWorkspace(folder) {
		const beta = `${folder}-beta`;
		mkdirSync(beta, { recursive: true });
		writeFileSync(join(beta, 'beta.ts'), 'export const beta = 2;\n');
		installTeam(folder, 'configs', 'demo.yaml');
		installTeam(beta, 'configs', 'demo.yaml');
		const workspaceFile = `${folder}.code-workspace`;
		// Relative to the workspace file, which sits beside both folders (the usual form).
		const folders = [
			{ name: 'alpha', path: basename(folder) },
			{ name: 'beta', path: basename(beta) },
		];
		writeFileSync(workspaceFile, JSON.stringify({ folders }, null, 2));
		return { workspaceFile };
	},
	async run(workbench, folder) {
		const { page } = workbench;
		const beta = `${folder}-beta`;
		// code-server has opened such a window with no folders once in a while (its explorer says
		// "no folder opened"); a reload reads the workspace file again, as a user would do.
		const root = page.getByRole('treeitem', { name: 'beta' }).first();
		try {
			await root.waitFor({ timeout: 20_000 });
		} catch {
			await page.reload();
			await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
			await workbench.waitForExplorer('beta');
		}

		await workbench.runCommand('MassGen: Ask Team', { opensInput: true });
		await workbench.pickQuickItem('MassGen: Which Folder?', 'beta');
		await workbench.answerInputBox(/read-only/, 'What is in beta?');
		await completed(workbench, 'What is in beta?');
		assert.equal(runsOf(beta).length, 1, 'the run is recorded in beta');
		assert.deepEqual(runsOf(folder), [], 'alpha has no run');
		await workbench.screenshot('multi-root-01-beta');

		// Quick Open, as a user would (the explorer's roots may be collapsed): both hello.ts are alpha's.
		await page.keyboard.press('Control+P');
		await page.locator('.quick-input-widget input.input').fill('hello.ts');
		await page
			.locator('.quick-input-list .monaco-list-row', { hasText: 'hello.ts' })
			.first()
			.waitFor({ timeout: 15_000 });
		await page.keyboard.press('Enter');
		await page.locator('.editor-instance .monaco-editor.focused').waitFor({ timeout: 15_000 });
		await workbench.runCommand('MassGen: Ask Team', { opensInput: true });
		// No folder pick this time: the question box comes straight away.
		await workbench.answerInputBox(/read-only/, 'What is in alpha?');
		await completed(workbench, 'What is in alpha?');
		assert.equal(runsOf(folder).length, 1, 'the run is recorded in alpha');
		assert.equal(runsOf(beta).length, 1, 'beta still has its one run');
	},
};
