import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { installTeam, type Scenario } from './scenario';
import { massgenTab } from '../workbench';

const first = 'How should we document this project?';
const second = 'And what about a changelog?';
const third = 'After the reload: and the README?';

interface Recorded {
	readonly question: string;
	readonly session: { readonly id: string; readonly parentRunId: string | null };
}

/**
 * Like a user: two turns of one conversation (Ask Team, then a follow-up in the panel), every
 * editor closed, then the MassGen item of the Activity Bar: the Runs tree shows the session with
 * both turns; clicking the first turn opens it in the panel. After a window reload the panel's
 * next follow-up still continues the same session (its result.json names it), and the tree shows
 * the third turn without a refresh.
 */
export const runsView: Scenario = {
	name: 'Activity Bar: MassGen → Runs tree → a finished run opens in the panel; a reload keeps the thread',
	prepareWorkspace(folder) {
		installTeam(folder, 'configs', 'demo.yaml');
	},
	async run(workbench, folder) {
		const { page } = workbench;
		const runsDir = join(folder, '.massgen', 'runs');
		const recorded = (): Recorded[] =>
			readdirSync(runsDir)
				.sort()
				.map((id) => JSON.parse(readFileSync(join(runsDir, id, 'result.json'), 'utf8')) as Recorded);
		await workbench.waitForExplorer('hello.ts');

		await workbench.runCommand('MassGen: Ask Team', { opensInput: true });
		await workbench.answerInputBox(/read-only/, first);
		await workbench.waitInPanel('.question');
		let frame = workbench.webviewFrame();
		await frame.locator('.run-status', { hasText: /completed/i }).waitFor({ timeout: 30_000 });
		const box = () => frame.locator('#ask-input textarea');
		await box().fill(second);
		await box().press('Control+Enter');
		await frame.locator('.question', { hasText: second }).waitFor({ timeout: 30_000 });
		await frame.locator('.run-status', { hasText: /completed/i }).waitFor({ timeout: 30_000 });

		await workbench.runCommand('View: Close All Editors');
		await workbench.runCommand('Notifications: Clear All Notifications');
		const tree = page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'Runs' }) });
		// Clicking the item of the container already shown would hide the side bar.
		const showRuns = async () => {
			if (!(await tree.isVisible())) {
				await page.locator('.activitybar').getByRole('tab', { name: massgenTab }).click();
			}
		};
		await showRuns();
		// The history's rows: a run whose changes wait is also listed in the Running group at the top.
		const row = (text: string, level: number) =>
			tree.locator(`.monaco-list-row[aria-level="${level}"]`, {
				hasText: text,
				hasNotText: 'changes to review',
			});
		await row(first, 1).waitFor({ timeout: 20_000 });
		assert.match((await row(first, 1).textContent()) ?? '', /2 turns/);
		await row(second, 2).waitFor({ timeout: 10_000 });
		// Wide enough for the rows' descriptions (winner, cost, time, changes): drag the side bar's edge.
		const bar = await page.locator('.part.sidebar').boundingBox();
		assert.ok(bar, 'the side bar is shown');
		await page.mouse.move(bar.x + bar.width + 1, bar.y + bar.height / 2);
		await page.mouse.down();
		await page.mouse.move(bar.x + bar.width + 260, bar.y + bar.height / 2, { steps: 8 });
		await page.mouse.up();
		await row(first, 2).hover();
		await page
			.locator('.monaco-hover, .workbench-hover', { hasText: 'Started' })
			.first()
			.waitFor({ timeout: 10_000 });
		await workbench.screenshot('runs-view-01-tree');

		await row(first, 2).click();
		await workbench.waitInPanel('.question');
		frame = workbench.webviewFrame();
		await frame.locator('.question', { hasText: first }).waitFor({ timeout: 15_000 });
		await frame.locator('.winner-banner .winner-title strong').waitFor({ timeout: 10_000 });
		await workbench.screenshot('runs-view-02-opened');

		// VS Code writes the workspace state (the panel's run) a moment after it changes.
		await new Promise((resolve) => setTimeout(resolve, 2_000));
		await page.reload();
		await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
		// The workbench may not have saved its open editors before the reload (under load it often
		// has not): then the user opens the panel again, and it shows the run it showed before.
		await workbench.waitInPanel('.question', 20_000).catch(async () => {
			await workbench.runCommand('MassGen: Show Panel');
			await workbench.waitInPanel('.question', 60_000);
		});
		frame = workbench.webviewFrame();
		await frame.locator('.question', { hasText: first }).waitFor({ timeout: 15_000 });
		await box().fill(third);
		await box().press('Control+Enter');
		await frame.locator('.question', { hasText: third }).waitFor({ timeout: 30_000 });
		await frame.locator('.run-status', { hasText: /completed/i }).waitFor({ timeout: 30_000 });

		const runs = recorded();
		assert.deepEqual(
			runs.map((run) => run.question),
			[first, second, third],
		);
		const [a, b, c] = runs as [Recorded, Recorded, Recorded];
		assert.equal(b.session.id, a.session.id);
		assert.deepEqual(c.session, { id: a.session.id, parentRunId: readdirSync(runsDir).sort()[1] });
		await showRuns();
		await row(third, 2).waitFor({ timeout: 20_000 });
		// The session's own row may be redrawn a moment after its new turn's row shows.
		await row(first, 1)
			.filter({ hasText: /3 turns/ })
			.waitFor({ timeout: 20_000 });
		await workbench.screenshot('runs-view-03-after-reload');
	},
};
