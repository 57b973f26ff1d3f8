import assert from 'node:assert/strict';
import type { Scenario } from './scenario';

export const showPanel: Scenario = {
	name: 'palette: MassGen: Show Panel opens the side bar view (empty state: no run yet), its ask box focused',
	async run(workbench) {
		await workbench.waitForExplorer('hello.ts');
		await workbench.screenshot('show-panel-01-workbench');
		await workbench.runCommand('MassGen: Show Panel', {
			beforeRun: async () => void (await workbench.screenshot('show-panel-02-palette')),
		});
		await workbench.waitInPanel('.empty-state');
		const frame = workbench.webviewFrame();
		assert.equal(await frame.locator('#empty-heading').textContent(), 'MassGen');
		// In the side bar (not an editor tab), with the keyboard in its ask box.
		await frame.locator('#ask-input:focus').waitFor({ timeout: 15_000 });
		await workbench.page
			.locator('.part.sidebar .composite.title', { hasText: /MassGen Team/i })
			.waitFor({ timeout: 15_000 });
		assert.equal(await workbench.page.locator('.tabs-container .tab', { hasText: 'MassGen' }).count(), 0);
		await workbench.screenshot('show-panel-03-panel');
	},
};
