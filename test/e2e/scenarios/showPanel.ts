import assert from 'node:assert/strict';
import type { Scenario } from './scenario';

export const showPanel: Scenario = {
	name: 'palette: MassGen: Show Panel opens the panel placeholder',
	async run(workbench) {
		await workbench.waitForExplorer('hello.ts');
		await workbench.screenshot('show-panel-01-workbench');
		await workbench.runCommand('MassGen: Show Panel', {
			beforeRun: async () => void (await workbench.screenshot('show-panel-02-palette')),
		});
		const frame = workbench.webviewFrame();
		await frame.locator('#placeholder').waitFor({ timeout: 30_000 });
		assert.equal(await frame.locator('#title').textContent(), 'MassGen');
		assert.match((await frame.locator('#placeholder').textContent()) ?? '', /not implemented yet/);
		const tab = workbench.page.locator('.tabs-container .tab', { hasText: 'MassGen' });
		await tab.waitFor();
		await workbench.screenshot('show-panel-03-panel');
	},
};
