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
		// In the secondary side bar (not an editor tab) over VS Code's Chat there, with the keyboard in its ask box.
		await frame.locator('#ask-input:focus').waitFor({ timeout: 15_000 });
		await workbench.secondarySideBarShows('MassGen Team');
		assert.equal(await workbench.page.locator('.tabs-container .tab', { hasText: 'MassGen' }).count(), 0);
		await workbench.screenshot('show-panel-03-panel');
	},
};
