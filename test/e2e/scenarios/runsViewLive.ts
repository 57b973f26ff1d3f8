import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../workbench';
import { installTeam, type Scenario } from './scenario';

const slow = 'Slow question that keeps working';
const release = 'Release version 3.0';
const queued = 'A third question that waits';

/**
 * Like a user with several runs going: Ask Team on a slow team (it keeps working), then, after the
 * team config changed, on a team that asks to run `npm publish` (it waits for an approval), then a
 * third question past `massgen.runs.maxConcurrent` (2): it waits in the queue. The MassGen item of
 * the Activity Bar: the Runs view's "Running" group lists the three runs with their states, and
 * its badge counts the run that needs the user. Remove from Queue on the queued row takes it away;
 * Stop on the others ends them.
 */
export const runsViewLive: Scenario = {
	name: 'Runs view: live runs at the top (working, needs approval, queued), the badge, Remove from Queue and Stop from the rows',
	prepareWorkspace(folder) {
		installTeam(folder, 'test', 'fixtures', 'vscode', 'slow-team.yaml');
		mkdirSync(join(folder, '.vscode'), { recursive: true });
		writeFileSync(
			join(folder, '.vscode', 'settings.json'),
			JSON.stringify({ 'workbench.secondarySideBar.showLabels': false }),
		);
	},
	async run(workbench, folder) {
		const { page } = workbench;
		await workbench.waitForExplorer('hello.ts');
		await workbench.openInEditor('hello.ts');
		const ask = async (question: string) => {
			await workbench.runCommand('MassGen: Ask Team', { opensInput: true });
			await workbench.answerInputBox(/read-only/, question);
		};
		await ask(slow);
		await workbench.waitInPanel('.question');
		// The next runs are prepared with the team the config names then (the first one keeps its own).
		copyFileSync(
			join(repoRoot, 'test', 'fixtures', 'vscode', 'approvals-team.yaml'),
			join(folder, '.massgen', 'config.yaml'),
		);
		await ask(release);
		await workbench.notification(/Release version 3\.0.*wants to run `npm publish`/, 60_000);
		await ask(queued);

		const tree = page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'Runs' }) });
		if (!(await tree.isVisible())) {
			await page
				.locator('.activitybar')
				.getByRole('tab', { name: /^MassGen\b/ })
				.first()
				.click();
		}
		const group = tree.locator('.monaco-list-row[aria-level="1"]', { hasText: 'Running' });
		await group.waitFor({ timeout: 20_000 });
		const row = (text: string) => tree.locator('.monaco-list-row[aria-level="2"]', { hasText: text });
		await row(queued).filter({ hasText: 'queued (1 of 1)' }).waitFor({ timeout: 20_000 });
		assert.match((await row(slow).textContent()) ?? '', /working/);
		assert.match((await row(release).textContent()) ?? '', /needs approval/);
		assert.match((await group.textContent()) ?? '', /1 working · 1 needs approval · 1 queued/);
		// The view's badge on the MassGen item counts the run that needs the user.
		await page
			.locator('.activitybar')
			.getByRole('tab', { name: /^MassGen/ })
			.locator('.badge-content', { hasText: '1' })
			.waitFor({ timeout: 10_000 });
		// Wide enough for the rows' descriptions: drag the side bar's edge.
		const bar = await page.locator('.part.sidebar').boundingBox();
		assert.ok(bar, 'the side bar is shown');
		await page.mouse.move(bar.x + bar.width + 1, bar.y + bar.height / 2);
		await page.mouse.down();
		await page.mouse.move(bar.x + bar.width + 200, bar.y + bar.height / 2, { steps: 8 });
		await page.mouse.up();
		await row(queued).hover();
		await workbench.screenshot('runs-view-live-01-rows');

		// The queued row's inline Remove from Queue: the row goes, nothing else changes.
		await row(queued).locator('.action-label[aria-label="Remove from Queue"]').click();
		await row(queued).waitFor({ state: 'detached', timeout: 10_000 });
		// Stop on the going runs: the release run leaves the group (the history lists it), then the slow one.
		// The tree redraws when a run ends or the history's listing changes (polled): a click that lands
		// on a row being replaced is lost, so Stop is clicked again until the run has gone (at most 3 times).
		const stop = async (text: string, gone: () => Promise<void>) => {
			for (let attempt = 1; ; attempt++) {
				await row(text).hover();
				await row(text).locator('.action-label[aria-label="Stop Run"]').click();
				try {
					return await gone();
				} catch (error) {
					if (attempt === 3) throw error;
				}
			}
		};
		await stop(release, () => group.filter({ hasText: /Running\s*1 working$/ }).waitFor({ timeout: 7_000 }));
		await stop(slow, () => group.waitFor({ state: 'detached', timeout: 7_000 }));
		await workbench.screenshot('runs-view-live-02-stopped');
	},
};
