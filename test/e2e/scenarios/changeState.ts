import assert from 'node:assert/strict';
import {
	addedFinal,
	addedPath,
	appBase,
	appFinal,
	appPath,
	appWith,
	notesBase,
	notesFinal,
	notesPath,
} from '../../fixtures/changes/files';
import type { Workbench } from '../workbench';
import { askTeam, read, untilOnDisk, waitForAppDiff, writeBase } from './changes';
import { installTeam, type Scenario } from './scenario';

const prepare = (folder: string) => {
	writeBase(folder);
	installTeam(folder, 'test', 'fixtures', 'changes', 'team.yaml');
};

const statusItem = (workbench: Workbench, text: string | RegExp) =>
	workbench.page.locator('.statusbar-item', { hasText: text }).first();

const endToast = (workbench: Workbench) =>
	workbench.page.locator('.notifications-toasts .notification-toast', { hasText: /files? changed by/ });

/** A lens of the proposed side whose text matches, in the diff (or multi-file diff entry) `scope`. */
const lens = (scope: ReturnType<Workbench['page']['locator']>, text: string | RegExp) =>
	scope.locator('.codelens-decoration a', { hasText: text }).first();

/**
 * Accept from somewhere else than the notification (the palette), then Undo and Redo in the editor:
 * the notification is gone at the accept, the status bar follows each step, nothing stale is left.
 */
export const changeStateUndo: Scenario = {
	name: 'change state: Accept from the palette closes the notification; Undo offers the set again, Redo accepts it',
	prepareWorkspace: prepare,
	async run(workbench, folder) {
		const { page } = workbench;
		await workbench.waitForExplorer('hello.ts');
		await workbench.openInEditor('hello.ts');
		await askTeam(workbench);
		await waitForAppDiff(workbench);
		await endToast(workbench).first().waitFor({ timeout: 15_000 });
		await statusItem(workbench, 'MassGen: 3 files to review').waitFor({ timeout: 10_000 });
		const tabs = await page.locator('.tabs-container .tab').allTextContents();
		assert.ok(
			tabs.some((tab) => tab.includes('hello.ts')),
			`the user's editor keeps its tab: ${JSON.stringify(tabs)}`,
		);
		await workbench.screenshot('change-state-01-pending');

		await workbench.runCommand('MassGen: Accept Changes');
		await untilOnDisk(
			'the accepted files',
			() =>
				read(folder, appPath) === appFinal &&
				read(folder, notesPath) === notesFinal &&
				read(folder, addedPath) === addedFinal,
		);
		await endToast(workbench).first().waitFor({ state: 'detached', timeout: 10_000 });
		await statusItem(workbench, 'MassGen: applied 3 files').waitFor({ timeout: 10_000 });
		await workbench.screenshot('change-state-02-accepted');

		// Undo in the editor: one step takes the whole accept back.
		await page.keyboard.press('Control+P');
		await page.locator('.quick-input-widget input.input').fill(appPath);
		await page.locator('.quick-input-list .monaco-list-row', { hasText: 'app.ts' }).first().waitFor();
		await page.keyboard.press('Enter');
		await page.locator('.editor-instance .monaco-editor.focused').waitFor({ timeout: 10_000 });
		await page.keyboard.press('Control+Z');
		await page
			.locator('.editor-instance .monaco-editor.focused .view-lines', { hasText: '// product' })
			.waitFor({ state: 'detached', timeout: 10_000 });
		// Every file is back as before the accept: the set is offered again, in the status bar and the panel.
		await statusItem(workbench, 'MassGen: 3 files to review').waitFor({ timeout: 10_000 });
		assert.equal(await statusItem(workbench, 'applied 3 files').count(), 0, 'no stale "applied" left');
		assert.equal(await endToast(workbench).count(), 0, 'no notification pops up for the undo');
		await workbench.waitInPanel('.changes .accept-all');
		assert.equal(await workbench.webviewFrame().locator('.changes .accept-all').isDisabled(), false);
		await workbench.screenshot('change-state-03-undone');

		await page.keyboard.press('Control+Y');
		await page
			.locator('.editor-instance .monaco-editor.focused .view-lines', { hasText: '// product' })
			.waitFor({ timeout: 10_000 });
		await statusItem(workbench, 'MassGen: applied 3 files').waitFor({ timeout: 10_000 });
		await workbench.screenshot('change-state-04-redone');
		// The redo is in the buffer; code-server's auto save (after a delay) puts it on disk.
		await untilOnDisk('notes.md redone on disk', () => read(folder, notesPath) === notesFinal);
	},
};

/**
 * Review from the notification opens one multi-file diff: workspace paths, no rename mark (the new
 * file marked added), and per file an Accept File lens; its title accepts the rest.
 */
export const changeStateMultiDiff: Scenario = {
	name: 'change state: Review opens the multi-file diff; accept one file there, then the rest from its title',
	prepareWorkspace: prepare,
	async run(workbench, folder) {
		const { page } = workbench;
		await workbench.waitForExplorer('hello.ts');
		await askTeam(workbench);
		await waitForAppDiff(workbench);
		const toast = endToast(workbench).first();
		await toast.waitFor({ timeout: 15_000 });
		await workbench.screenshot('change-state-05-notification');
		await toast.getByRole('link', { name: 'Review' }).click();
		const entry = (name: string) =>
			page
				.locator('.multiDiffEntry', { has: page.locator('.header .title.modified', { hasText: name }) })
				.first();
		await entry('notes.md').waitFor({ timeout: 15_000 });
		await toast.waitFor({ state: 'detached', timeout: 10_000 });
		const headers = await page.locator('.multiDiffEntry .header').allInnerTexts();
		assert.ok(
			headers.some((text) => /^app\.ts\s*changes-demo$/.test(text)) &&
				headers.every((text) => !text.includes('proposed')),
			`headers show workspace paths: ${JSON.stringify(headers)}`,
		);
		// No rename mark (base and proposed share a path); the new file is marked added: it has no left side.
		const marks = await page.locator('.multiDiffEntry .header .status').allInnerTexts();
		assert.deepEqual(
			marks.filter((mark) => mark.trim() !== ''),
			['A'],
			'only the new file is marked (added)',
		);
		assert.equal((await entry('added.md').locator('.header .status').innerText()).trim(), 'A');
		const accept = lens(entry('notes.md'), /^\s*Accept File\s*$/);
		await accept.waitFor({ timeout: 15_000 });
		await workbench.screenshot('change-state-06-multi-diff');
		await accept.click();
		await untilOnDisk('notes.md accepted', () => read(folder, notesPath) === notesFinal);
		assert.deepEqual([read(folder, appPath), read(folder, addedPath)], [appBase, null], 'only that file');
		// A decided file's lens is a label, not a link.
		await entry('notes.md')
			.locator('.codelens-decoration', { hasText: 'Accepted' })
			.first()
			.waitFor({ timeout: 10_000 });
		await workbench.screenshot('change-state-07-file-accepted');

		await page
			.locator('.editor-group-container.active .editor-actions .action-label[aria-label^="Accept Changes"]')
			.first()
			.click();
		await untilOnDisk(
			'the rest accepted',
			() => read(folder, appPath) === appFinal && read(folder, addedPath) === addedFinal,
		);
		await entry('notes.md').waitFor({ state: 'detached', timeout: 10_000 });
	},
};

/** Per change in the diff itself: Reject one change by its lens, then Accept File writes the rest. */
export const changeStateHunk: Scenario = {
	name: 'change state: Reject Change and Accept File lenses in the diff editor',
	prepareWorkspace: prepare,
	async run(workbench, folder) {
		const { page } = workbench;
		await workbench.waitForExplorer('hello.ts');
		await askTeam(workbench);
		await waitForAppDiff(workbench);
		const modified = page.locator('.monaco-diff-editor .editor.modified').first();
		const reject = lens(modified, /Reject Change \(line 10/);
		await reject.waitFor({ timeout: 15_000 });
		await workbench.screenshot('change-state-08-hunk-lenses');
		await reject.click();
		await modified
			.locator('.view-lines', { hasText: '// product' })
			.waitFor({ state: 'detached', timeout: 10_000 });
		await lens(modified, /Accept Change \(line 10/).waitFor({ timeout: 10_000 });
		await workbench.screenshot('change-state-09-hunk-rejected');
		await lens(modified, /Accept File \(2 of 3 changes\)/).click();
		await untilOnDisk(
			'app.ts without the rejected change',
			() => read(folder, appPath) === appWith('docComment', 'subComment'),
		);
		assert.deepEqual([read(folder, notesPath), read(folder, addedPath)], [notesBase, null], 'only app.ts');
		// The next pending file takes the accepted diff's place (with focus): wait for it before the
		// palette, which an editor taking focus would close.
		await page.locator('.tabs-container .tab.active', { hasText: 'added.md' }).waitFor({ timeout: 10_000 });
		await workbench.runCommand('MassGen: Reject Changes');
		await statusItem(workbench, 'MassGen: 2 files to review').waitFor({ state: 'detached', timeout: 10_000 });
	},
};
