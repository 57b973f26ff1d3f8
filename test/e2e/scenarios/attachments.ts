import assert from 'node:assert/strict';
import { installTeam, type Scenario } from './scenario';

/**
 * Like a user (docs/context.md): hello.ts open with its line selected, F1 → "MassGen: Ask Team". The
 * input box says "Attached: hello.ts line 1"; the run's header in the panel lists it. Asked again,
 * the box's "Ask without the file" button drops it: the box says so and the next run's header
 * lists nothing.
 */
export const attachments: Scenario = {
	name: 'attachments: Ask Team from an editor attaches the selection (input box and panel header say so); the button drops it',
	prepareWorkspace(folder) {
		installTeam(folder, 'test', 'fixtures', 'vscode', 'team.yaml');
	},
	async run(workbench) {
		const { page } = workbench;
		await workbench.waitForExplorer('hello.ts');
		await workbench.openInEditor('hello.ts');
		await page.keyboard.press('Control+A');

		await workbench.runCommand('MassGen: Ask Team', { opensInput: true });
		await workbench.answerInputBox(/^Attached: hello\.ts line 1\. /, 'What does this line export?', {
			beforeEnter: async () => void (await workbench.screenshot('attachments-01-input')),
		});
		await workbench.waitInPanel('.final-answer, .run-attachments .attachment');
		const frame = workbench.webviewFrame();
		const listed = frame.locator('.run-header .run-attachments .attachment');
		await listed.first().waitFor({ timeout: 30_000 });
		assert.deepEqual(await listed.allTextContents(), ['hello.ts line 1']);
		await workbench.screenshot('attachments-02-header');
		// The run's diff opens beside the editor when it ends; back to hello.ts after that, not before it.
		await page.locator('.tabs-container .tab', { hasText: 'README.md' }).first().waitFor({ timeout: 30_000 });

		await workbench.openInEditor('hello.ts');
		await workbench.runCommand('MassGen: Ask Team', { opensInput: true });
		const widget = page.locator('.quick-input-widget');
		await widget
			.locator('.quick-input-message', { hasText: /^Attached: hello\.ts/ })
			.waitFor({ timeout: 15_000 });
		await widget.getByRole('button', { name: 'Ask without the file' }).click();
		await workbench.answerInputBox(/^The team works on the open workspace/, 'And without the file?');
		await frame
			.locator('.run-header .question', { hasText: 'And without the file?' })
			.waitFor({ timeout: 30_000 });
		assert.equal(await frame.locator('.run-header .run-attachments').isHidden(), true, 'nothing listed');
		await workbench.screenshot('attachments-03-without');
	},
};
