import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AttachmentRecord, RunEvent } from '../../../src/contract/runEvents';
import { installTeam, type Scenario } from './scenario';

/**
 * Like a user (docs/context.md): hello.ts open, F1 → "MassGen: Add Context…" → Open Editors; the
 * multi-select has hello.ts checked, Enter adds it as a chip in the panel's ask box (the panel
 * opens), and the panel's title bar offers the same command. Asked, the run records the file.
 */
export const addContext: Scenario = {
	name: 'add context: the palette command picks an open editor; the chip lands in the ask box and reaches the run',
	prepareWorkspace(folder) {
		installTeam(folder, 'test', 'fixtures', 'vscode', 'team.yaml');
	},
	async run(workbench, folder) {
		const { page } = workbench;
		await workbench.waitForExplorer('hello.ts');
		await workbench.openInEditor('hello.ts');

		await workbench.runCommand('MassGen: Add Context…', { opensInput: true });
		await workbench.pickQuickItem('Add Context', 'Open Editors');
		await workbench.screenshot('add-context-01-editors');
		await workbench.pickQuickItem('Add Context: Open Editors', 'hello.ts');
		await workbench.waitInPanel('.ask-chip .chip-label');
		const frame = workbench.webviewFrame();
		assert.deepEqual(await frame.locator('.ask-chip .chip-label').allTextContents(), ['hello.ts']);
		// The view's title bar has the command too.
		await page
			.locator('.part.auxiliarybar .action-label[aria-label="Add Context…"]')
			.first()
			.waitFor({ timeout: 15_000 });
		await workbench.screenshot('add-context-02-chip');

		await frame.locator('#ask-input').click();
		await page.keyboard.type('What does this file export?');
		await page.keyboard.press('Control+Enter');
		await workbench.waitInPanel('.run-header .run-attachments .attachment');
		const runsDir = join(folder, '.massgen', 'runs');
		const [runId] = readdirSync(runsDir);
		assert.ok(runId, 'a run directory');
		const start = readFileSync(join(runsDir, runId, 'events.jsonl'), 'utf8')
			.split('\n')
			.filter((line) => line.trim())
			.map((line) => JSON.parse(line) as RunEvent)
			.find((event) => event.type === 'run-start');
		const attachments = (start as { attachments?: AttachmentRecord[] } | undefined)?.attachments ?? [];
		assert.deepEqual(
			attachments.map((a) => [a.kind, a.source]),
			[['file', 'hello.ts']],
		);
	},
};
