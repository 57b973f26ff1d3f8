import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AttachmentRecord, RunEvent } from '../../../src/contract/runEvents';
import { resultsDir } from '../workbench';
import { installTeam, type Scenario } from './scenario';

/**
 * Like a user, in the panel's ask box (docs/context.md): `#hel` lists the workspace's matches (hello.ts,
 * src/hello.ts) and Enter adds the first as a chip; `#src` and a click add the folder; an image
 * pasted into the question becomes a chip with a thumbnail; hidden behind the Explorer and shown
 * again, the panel still has them; × removes the folder chip. Asked,
 * the run records exactly the chips that were left (`run-start.attachments` in events.jsonl).
 */
export const askBoxChips: Scenario = {
	name: 'ask box: # completion adds a file chip, a pasted image shows as a thumbnail chip, × removes a chip from the request',
	prepareWorkspace(folder) {
		installTeam(folder, 'test', 'fixtures', 'vscode', 'team.yaml');
	},
	async run(workbench, folder) {
		await workbench.waitForExplorer('hello.ts');
		await workbench.runCommand('MassGen: Show Panel');
		await workbench.waitInPanel('.empty-state');
		const frame = workbench.webviewFrame();
		const input = frame.locator('#ask-input');
		await input.click();
		await workbench.page.keyboard.type('What does #hel');
		const options = frame.locator('.context-option');
		await options.first().waitFor({ timeout: 15_000 });
		const listed = await options.locator('.context-detail').allTextContents();
		assert.deepEqual(listed.slice(0, 2).sort(), ['hello.ts', 'src/hello.ts'], 'the workspace’s matches');
		// The list opens above the box: one picture of both (README).
		const box = await frame.locator('.ask-box').boundingBox();
		const list = await frame.locator('.context-completion').boundingBox();
		assert.ok(box && list);
		const top = Math.min(box.y, list.y) - 6;
		await workbench.page.screenshot({
			path: join(resultsDir, 'ask-box-hash-list.png'),
			clip: { x: box.x, y: top, width: box.width, height: box.y + box.height - top },
		});
		await workbench.screenshot('ask-box-01-hash-list');
		const picked = (await options.first().locator('.context-detail').textContent()) ?? '';
		await workbench.page.keyboard.press('Enter');
		const chips = frame.locator('.ask-chip .chip-label');
		await chips.first().waitFor();
		assert.deepEqual(await chips.allTextContents(), [picked.split('/').pop()]);

		await workbench.page.keyboard.type('#src');
		await frame.locator('.context-option', { hasText: 'folder src/' }).click();
		await workbench.page.keyboard.type(' export?');

		// A screenshot pasted from the clipboard: a PNG file item in a paste event.
		// Page code as text: evaluated in the webview's frame (the root tsconfig has no DOM lib).
		await input.evaluate(`(async () => {
			const canvas = new OffscreenCanvas(120, 80);
			const context = canvas.getContext('2d');
			context.fillStyle = '#3a7bd5';
			context.fillRect(0, 0, 120, 80);
			context.fillStyle = '#ffd166';
			context.fillRect(20, 20, 50, 30);
			const blob = await canvas.convertToBlob({ type: 'image/png' });
			const data = new DataTransfer();
			data.items.add(new File([blob], 'screenshot.png', { type: 'image/png' }));
			const event = new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true });
			document.querySelector('#ask-input').dispatchEvent(event);
		})()`);
		const thumbnail = frame.locator('.ask-chip[data-kind="image"] img.chip-thumbnail');
		await thumbnail.waitFor({ timeout: 15_000 });
		assert.match((await thumbnail.getAttribute('src')) ?? '', /^data:image\/png;base64,/);
		assert.deepEqual(await chips.allTextContents(), [picked.split('/').pop(), 'src/', 'screenshot.png']);
		await frame.locator('.ask-box').screenshot({ path: join(resultsDir, 'ask-box-chips.png') });
		await workbench.screenshot('ask-box-02-chips');

		// Hidden behind VS Code's Chat (Ctrl+Alt+I from an editor: it shares the secondary side bar) and
		// shown again (VS Code drops the page meanwhile): the chips stay.
		await workbench.openInEditor('README.md');
		await workbench.page.locator('.editor-instance .monaco-editor.focused').waitFor({ timeout: 15_000 });
		await workbench.page.keyboard.press('Control+Alt+I');
		await workbench.secondarySideBarShows('Chat');
		await frame.locator('#ask-input').waitFor({ state: 'detached', timeout: 15_000 });
		await workbench.runCommand('MassGen: Show Panel');
		await thumbnail.waitFor({ timeout: 15_000 });
		assert.deepEqual(await chips.allTextContents(), [picked.split('/').pop(), 'src/', 'screenshot.png']);
		assert.equal(
			await input.evaluate((element) => (element as unknown as { value: string }).value),
			'What does  export?',
		);

		await frame.getByRole('button', { name: 'Remove src/' }).click();
		assert.deepEqual(await chips.allTextContents(), [picked.split('/').pop(), 'screenshot.png']);
		await input.click();
		await workbench.page.keyboard.press('Control+Enter');
		await workbench.waitInPanel('.run-header .run-attachments .attachment');
		assert.equal(await frame.locator('.ask-chip').count(), 0, 'the box is empty after asking');

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
			attachments.map((a) => [a.kind, a.source, a.kind === 'image' ? a.mediaType : undefined]),
			[
				['file', picked, undefined],
				['image', 'screenshot.png', 'image/png'],
			],
			'the run holds the chips left, not the removed folder',
		);
		await workbench.screenshot('ask-box-03-run');
	},
};
