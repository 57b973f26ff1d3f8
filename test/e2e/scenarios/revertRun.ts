import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { installTeam, type Scenario } from './scenario';

// The texts of test/fixtures/changes/revert-team.yaml (its presentation edits line 3, adds and deletes a file).
const settingsPath = 'revert-demo/settings.ts';
const addedPath = 'revert-demo/added.md';
const oldPath = 'revert-demo/old.md';
const settingsBase = [
	"export const apiKey = 'sk-ant-api03-REVERTTESTxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx';",
	'export const retries = 3;',
	'export const timeoutMs = 1000;',
	'export const verbose = false;',
	"export const name = 'demo';",
	'',
].join('\n');
const settingsTeam = settingsBase.replace('timeoutMs = 1000;', 'timeoutMs = 5000; // the team');
const question = 'Tidy the settings';

const read = (folder: string, path: string) =>
	existsSync(join(folder, path)) ? readFileSync(join(folder, path), 'utf8') : null;

async function untilOnDisk(what: string, probe: () => boolean, timeoutMs = 15_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!probe()) {
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
}

/**
 * Like a user (docs/sessions.md): Ask Team, Accept All from the notification, then the panel's Revert Run
 * puts every file back (the created one deleted, the deleted one restored); "MassGen: Revert Run"
 * from the palette, picking the run, re-applies the changes.
 */
export const revertRun: Scenario = {
	name: "revert run: the panel's Revert Run after Accept All; the palette's Revert Run re-applies",
	prepareWorkspace(folder) {
		mkdirSync(join(folder, 'revert-demo'), { recursive: true });
		writeFileSync(join(folder, settingsPath), settingsBase);
		writeFileSync(join(folder, oldPath), '# Old notes\n');
		installTeam(folder, 'test', 'fixtures', 'changes', 'revert-team.yaml');
	},
	async run(workbench, folder) {
		const { page } = workbench;
		await workbench.waitForExplorer('hello.ts');
		await workbench.runCommand('MassGen: Ask Team', { opensInput: true });
		await workbench.answerInputBox(/read-only/, question);
		const toast = page
			.locator('.notifications-toasts .notification-toast', { hasText: /3 files changed by/ })
			.first();
		await toast.waitFor({ timeout: 30_000 });
		await toast.getByRole('link', { name: 'Accept All' }).click();
		const teamFiles = () =>
			read(folder, settingsPath) === settingsTeam &&
			read(folder, addedPath) === '# Added by the team\n' &&
			read(folder, oldPath) === null;
		await untilOnDisk('the accepted files', teamFiles);

		await workbench.waitInPanel('.revert-run');
		const revert = workbench.webviewFrame().locator('.revert-run');
		await revert.scrollIntoViewIfNeeded();
		await workbench.screenshot('revert-01-panel-after-accept');
		await revert.click();
		const reverted = await workbench.notification(/reverted 3 files/);
		// The run is named by its question, as the Runs view names it; its id stays in the log.
		assert.match(reverted, new RegExp(`MassGen: “${question}”: reverted 3 files`));
		assert.doesNotMatch(reverted, /\d{8}-\d{6}-[0-9a-z]{4}/);
		await untilOnDisk(
			'the reverted files',
			() =>
				read(folder, settingsPath) === settingsBase &&
				read(folder, addedPath) === null &&
				read(folder, oldPath) === '# Old notes\n',
		);
		await workbench.screenshot('revert-02-reverted');

		await workbench.runCommand('MassGen: Revert Run', { opensInput: true });
		await workbench.pickQuickItem('MassGen: Revert Run', question);
		const text = await workbench.notification(/re-applied 3 files/);
		assert.match(text, new RegExp(`MassGen: “${question}”: re-applied 3 files`));
		assert.doesNotMatch(text, /\d{8}-\d{6}-[0-9a-z]{4}/);
		await untilOnDisk('the re-applied files', teamFiles);
		await workbench.screenshot('revert-03-reapplied');
	},
};
