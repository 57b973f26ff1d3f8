import assert from 'node:assert/strict';
import { appBase, appPath, notesBase, notesPath } from '../../fixtures/changes/files';
import { askTeam, read, waitForAppDiff, writeBase } from './changes';
import { installTeam, type Scenario } from './scenario';

const words = 'Say what add() returns, too.';

/**
 * Like a reviewer (docs/changes.md, the review loop): the scripted change team's proposal opens
 * as a diff; a click on the proposed side's first line, then "MassGen: Comment for the Team" from
 * the palette with the words typed into its input box, makes a comment thread there; "MassGen:
 * Send to Team" sends it back. The revision's change set replaces the proposal (one set to
 * review, not two), and the thread moves onto the new diff marked as the team answered it (the
 * scripted team cites no comment: "Not addressed by the team (c1)"). Nothing was written.
 */
export const reviewLoop: Scenario = {
	name: 'review loop: Comment for the Team on the proposed side, Send to Team, the thread on the revised set',
	prepareWorkspace(folder) {
		writeBase(folder);
		installTeam(folder, 'test', 'fixtures', 'changes', 'team.yaml');
	},
	async run(workbench, folder) {
		const { page } = workbench;
		await workbench.waitForExplorer('hello.ts');
		await askTeam(workbench);
		await waitForAppDiff(workbench);
		const statusItem = (text: string) => page.locator('.statusbar-item', { hasText: text }).first();
		await statusItem('MassGen: 3 files to review').waitFor({ timeout: 15_000 });

		// The proposed side's first line ("/** Adds two numbers. */"), then the palette's command.
		const modified = page.locator('.monaco-diff-editor .editor.modified').first();
		await modified.locator('.view-line', { hasText: 'Adds two numbers' }).first().click();
		await workbench.runCommand('MassGen: Comment for the Team', { opensInput: true });
		await workbench.answerInputBox(/Comment for the Team on changes-demo\/app\.ts/, words);
		const thread = (title: RegExp) =>
			page
				.locator('.review-widget', { has: page.locator('.review-title', { hasText: title }) })
				.filter({ hasText: words })
				.first();
		await thread(/For the team/).waitFor({ timeout: 15_000 });
		await workbench.screenshot('review-loop-01-comment');

		await workbench.runCommand('MassGen: Send to Team');
		// The revision's thread: on the new run's diff, with what the team made of it.
		await thread(/Not addressed by the team \(c1\)/).waitFor({ timeout: 60_000 });
		await workbench.screenshot('review-loop-02-revised');
		// One set to review: the revised run's set is superseded, not waiting beside the new one.
		await statusItem('MassGen: 3 files to review').waitFor({ timeout: 15_000 });
		assert.equal(await page.locator('.statusbar-item', { hasText: /change sets to review/ }).count(), 0);
		assert.equal(read(folder, appPath), appBase, 'nothing was written');
		assert.equal(read(folder, notesPath), notesBase);
	},
};
