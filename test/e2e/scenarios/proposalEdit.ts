import assert from 'node:assert/strict';
import { appBase, appFinal, appPath, notesBase, notesFinal, notesPath } from '../../fixtures/changes/files';
import { askTeam, read, untilOnDisk, waitForAppDiff, writeBase } from './changes';
import { installTeam, type Scenario } from './scenario';

const mine = ' // checked by me';

/**
 * Like a user editing the proposal before accepting (docs/changes.md): the scripted change team's
 * proposal opens as a diff; the user clicks at the end of `return a + b;` on the proposed side,
 * types a comment and saves with Ctrl+S. The diff's lenses then offer Discard My Edit and name the
 * change "edited by you"; nothing is on disk yet. Accept Changes from the palette writes the
 * user's text exactly, with the team's other changes.
 */
export const proposalEdit: Scenario = {
	name: 'edit the proposal: type into the proposed side of the diff, save, Accept writes the edit',
	prepareWorkspace(folder) {
		writeBase(folder);
		installTeam(folder, 'test', 'fixtures', 'changes', 'team.yaml');
	},
	async run(workbench, folder) {
		const { page } = workbench;
		await workbench.waitForExplorer('hello.ts');
		await askTeam(workbench);
		await waitForAppDiff(workbench);

		const modified = page.locator('.monaco-diff-editor .editor.modified').first();
		await modified.locator('.view-line', { hasText: 'return a + b;' }).first().click();
		await page.keyboard.press('End');
		await page.keyboard.type(mine);
		await page.keyboard.press('Control+S');
		const lens = (text: string | RegExp) =>
			modified.locator('.codelens-decoration', { hasText: text }).first();
		await lens('Discard My Edit').waitFor({ timeout: 15_000 });
		await lens(/edited by you/).waitFor({ timeout: 15_000 });
		await workbench.screenshot('proposal-edit-01-saved');
		assert.equal(read(folder, appPath), appBase, 'the save wrote nothing to the workspace');

		await workbench.runCommand('MassGen: Accept Changes');
		const expected = appFinal.replace('\treturn a + b;', `\treturn a + b;${mine}`);
		// One WorkspaceEdit writes both; each file's save lands in its own time.
		assert.notEqual(notesFinal, notesBase);
		await untilOnDisk(
			"the edited proposal and the team's other change on disk",
			() => read(folder, appPath) === expected && read(folder, notesPath) === notesFinal,
		);
		await workbench.screenshot('proposal-edit-02-accepted');
	},
};
