/**
 * Clear outcomes in the panel: each file no longer pending keeps its row with what became of it
 * (accepted, partly accepted, rejected, reverted: the host's `change-outcomes`, from the run's
 * record), Revert Run only while something the run wrote is in, and Reject All does not move the
 * page under the user. Chromium under the real CSP.
 */
import { describe, expect, it } from 'vitest';
import type { ChangeOutcomesView } from '../../../src/protocol/changeSetView.js';
import { reduceRunEvents } from '../../../src/protocol/reduceRun.js';
import { initialRunState, type RunState } from '../../../src/protocol/runState.js';
import { ChangeSetFixture, changePaths } from '../../fixtures/webview/changeSet.js';
import { richRunEvents, richRunId } from '../../fixtures/webview/richRun.js';
import { usePanelPerTest } from './panelSession.js';

const state: RunState = reduceRunEvents(initialRunState(), richRunEvents('end'));
const ui = usePanelPerTest({ viewport: { width: 420, height: 700 } });

const row = (path: string) => ui.panel.page.locator(`li.change[data-path="${path}"]`);
const outcomes = (files: ChangeOutcomesView['files']) =>
	ui.panel.send({ type: 'change-outcomes', runId: richRunId, files });

describe('outcomes of a change set in the panel', () => {
	it('marks each resolved file, keeps pending ones reviewable, and offers Revert only when something was written', async () => {
		const fixture = new ChangeSetFixture();
		await ui.panel.send({ type: 'snapshot', state, runs: [] });
		await ui.panel.send({ type: 'change-set', changeSet: fixture.view() });
		const page = ui.panel.page;
		expect(await page.locator('.change-outcome:not([hidden])').count()).toBe(0);

		// load.ts accepted from its diff: it stays listed, marked, without checkbox; the rest is pending.
		const [, ...rest] = fixture.view().files;
		await ui.panel.send({ type: 'change-set', changeSet: { ...fixture.view(), files: rest } });
		await outcomes([{ path: changePaths.load, outcome: 'accepted' }]);
		await expect(row(changePaths.load).locator('.change-outcome').textContent()).resolves.toBe('accepted');
		expect(await row(changePaths.load).locator('.file-check').isHidden()).toBe(true);
		expect(await row(changePaths.docs).locator('.change-outcome').isHidden()).toBe(true);
		expect(await row(changePaths.docs).locator('.file-check').isVisible()).toBe(true);
		expect(await page.locator('.accept-all').isVisible()).toBe(true);
		expect(await page.locator('.revert-run').isHidden()).toBe(true);

		// Nothing pending: every file says what became of it; Revert is offered (load.ts was written).
		await ui.panel.send({ type: 'change-set', changeSet: null });
		await outcomes([
			{ path: changePaths.load, outcome: 'partly-accepted' },
			{ path: changePaths.docs, outcome: 'rejected' },
			{ path: changePaths.issues, outcome: 'rejected' },
		]);
		await expect(row(changePaths.load).locator('.change-outcome').textContent()).resolves.toBe(
			'partly accepted',
		);
		await expect(row(changePaths.docs).locator('.change-outcome').getAttribute('data-outcome')).resolves.toBe(
			'rejected',
		);
		await expect(row(changePaths.issues).locator('.change-outcome').textContent()).resolves.toBe('rejected');
		expect(await page.locator('.revert-run').isVisible()).toBe(true);

		// After a revert nothing of the run is in: no Revert Run.
		await outcomes([
			{ path: changePaths.load, outcome: 'reverted' },
			{ path: changePaths.docs, outcome: 'rejected' },
			{ path: changePaths.issues, outcome: 'rejected' },
		]);
		await expect(row(changePaths.load).locator('.change-outcome').textContent()).resolves.toBe('reverted');
		expect(await page.locator('.revert-run').isHidden()).toBe(true);
		// Outcomes of another run are not this run's.
		await ui.panel.send({
			type: 'change-outcomes',
			runId: '20990101-000000-else',
			files: [{ path: changePaths.load, outcome: 'accepted' }],
		});
		expect(await page.locator('.revert-run').isHidden()).toBe(true);
		await ui.panel.screenshot('outcomes-after-review');
	});

	it('Reject All leaves the page where it was: the footer stays under the pointer', async () => {
		await ui.panel.send({ type: 'snapshot', state, runs: [] });
		await ui.panel.send({ type: 'change-set', changeSet: new ChangeSetFixture().view() });
		const page = ui.panel.page;
		const reject = page.locator('.reject-all');
		await page.evaluate(
			`(() => { const r = document.querySelector('.changes-footer').getBoundingClientRect(); window.scrollBy(0, r.top - 300); })()`,
		);
		await ui.panel.frames(2);
		const footerTop = () =>
			page.evaluate(
				`document.querySelector('.changes-footer').getBoundingClientRect().top`,
			) as Promise<number>;
		const before = await footerTop();
		expect(Math.abs(before - 300)).toBeLessThanOrEqual(1);
		expect((await page.evaluate('window.scrollY')) as number).toBeGreaterThan(400);
		await reject.click();
		expect((await ui.panel.posted()).at(-1)).toEqual({ type: 'reject', runId: richRunId });
		await ui.panel.send({ type: 'change-set', changeSet: null });
		await ui.panel.frames(2);
		// The hunks above it are gone (the list is far shorter), the footer did not move.
		expect(
			await page
				.locator('.hunk')
				.evaluateAll(
					(all) =>
						all.filter((el) => (el as unknown as { offsetParent: unknown }).offsetParent !== null).length,
				),
		).toBe(0);
		expect(Math.abs((await footerTop()) - before)).toBeLessThanOrEqual(1);
		await expect(page.locator('.changes-note').textContent()).resolves.toBe(
			'No changes are pending any more (accepted or rejected).',
		);
	});
});
