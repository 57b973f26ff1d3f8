import assert from 'node:assert/strict';
import type { Scenario } from './scenario';

export const showPanel: Scenario = {
	name: 'palette: MassGen: Show Panel opens the panel (empty state: no run yet)',
	async run(workbench) {
		await workbench.waitForExplorer('hello.ts');
		await workbench.screenshot('show-panel-01-workbench');
		await workbench.runCommand('MassGen: Show Panel', {
			beforeRun: async () => void (await workbench.screenshot('show-panel-02-palette')),
		});
		await workbench.waitInPanel('.empty-state');
		const frame = workbench.webviewFrame();
		assert.equal(await frame.locator('#empty-heading').textContent(), 'MassGen');
		await frame.locator('#ask-input').waitFor();
		const tab = workbench.page.locator('.tabs-container .tab', { hasText: 'MassGen' });
		await tab.waitFor();
		await workbench.screenshot('show-panel-03-panel');
	},
};
