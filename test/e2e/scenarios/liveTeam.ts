import assert from 'node:assert/strict';
import { installTeam, type Scenario } from './scenario';

const question = 'Validate the input of parseAge and document it';
const agents = ['architect', 'reviewer', 'tester'];
const size = { width: 1280, height: 720 };

/**
 * The live view of a three-agent team at a laptop's size (1280×720): while the run goes on, every
 * lane (compact: name, state, one line) and the vote strip are inside the window and inside the
 * panel's visible area at once, asserted on their layout boxes; a click on a name expands that lane.
 * Screenshots stay in the results for a human to look at.
 */
export const liveTeam: Scenario = {
	name: 'live view at 1280×720: all three lanes and the vote strip in sight while the team works',
	prepareWorkspace(folder) {
		installTeam(folder, 'test', 'fixtures', 'vscode', 'live-team.yaml');
	},
	async run(workbench) {
		const { page } = workbench;
		await page.setViewportSize(size);
		// The workbench lays itself out again on the resize event, a moment later: wait for it.
		await page.waitForFunction(
			`(() => { const box = document.querySelector('.monaco-workbench')?.getBoundingClientRect(); return box !== undefined && box.width === ${size.width} && box.height === ${size.height}; })()`,
			undefined,
			{ timeout: 15_000 },
		);
		await workbench.waitForExplorer('hello.ts');
		await workbench.openInEditor('hello.ts');
		await workbench.runCommand('MassGen: Ask Team', { opensInput: true });
		await workbench.answerInputBox(/read-only/, question);
		await workbench.waitInPanel('.lane');
		const frame = workbench.webviewFrame();
		await frame.locator('.lane').nth(2).waitFor({ timeout: 30_000 });

		// Two votes are in, the third agent still works: the run goes on.
		await frame.locator('.vote-strip .vote-chip.has-vote').nth(1).waitFor({ timeout: 30_000 });
		assert.equal(await frame.locator('.cancel-run').isVisible(), true, 'the run is still going');
		const lanes = frame.locator('section.lane');
		assert.deepEqual(await frame.locator('section.lane .lane-id').allTextContents(), agents);
		assert.equal(await frame.locator('section.lane.is-compact').count(), 3, 'lanes are compact');

		await workbench.screenshot('live-team-00-two-votes');
		// Layout boxes, in the window's coordinates: the panel's visible area, every lane, the strip.
		const view = await page.locator('iframe.webview.ready').first().boundingBox();
		assert.ok(view, 'the panel is shown');
		const inside = (box: { x: number; y: number; width: number; height: number } | null, what: string) => {
			assert.ok(box, `${what} has a box`);
			const right = box.x + box.width;
			const bottom = box.y + box.height;
			assert.ok(
				box.x >= 0 && box.y >= 0 && right <= size.width && bottom <= size.height,
				`${what} in the window: ${JSON.stringify(box)}`,
			);
			assert.ok(
				box.x >= view.x - 1 &&
					box.y >= view.y - 1 &&
					right <= view.x + view.width + 1 &&
					bottom <= view.y + view.height + 1,
				`${what} in the panel's visible area: ${JSON.stringify(box)} in ${JSON.stringify(view)}`,
			);
		};
		for (let i = 0; i < 3; i++) inside(await lanes.nth(i).boundingBox(), `lane ${agents[i]}`);
		inside(await frame.locator('.vote-strip').boundingBox(), 'the vote strip');
		// The ask box is not covered by them (it is the panel's last, sticky row).
		const ask = await frame.locator('.ask-box').boundingBox();
		const lastLane = await lanes.nth(2).boundingBox();
		assert.ok(
			ask && lastLane && lastLane.y + lastLane.height <= ask.y + 1,
			'the lanes end above the ask box',
		);
		const votes = await frame.locator('.vote-strip .vote-chip').allTextContents();
		assert.ok(
			votes.filter((text) => text.includes('→')).length >= 2,
			`two votes in the strip: ${votes.join(' | ')}`,
		);
		await workbench.screenshot('live-team-01-running-1280x720');

		// A click on a name shows that lane whole; the others stay compact.
		await frame.locator('section.lane[data-agent="architect"] .lane-toggle').click();
		await frame
			.locator('section.lane[data-agent="architect"]:not(.is-compact) .lane-body')
			.waitFor({ timeout: 5_000 });
		await workbench.screenshot('live-team-02-expanded');

		// The run ends with a winner; the strip, pinned in the header, is still in sight.
		await frame.locator('.winner-banner .winner-title strong').waitFor({ timeout: 60_000 });
		inside(await frame.locator('.vote-strip').boundingBox(), 'the vote strip after the run');
		await workbench.screenshot('live-team-03-finished');
	},
};
