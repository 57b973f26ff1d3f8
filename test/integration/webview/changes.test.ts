/**
 * Per-hunk review in the panel (docs/changes.md), in Chromium under the real `webviewHtml` CSP: files
 * with +/- counts of the current selection, hunks with checkboxes and consensus marks, runner-up
 * alternatives, stale files, and the messages each control posts (all must pass the host's
 * schema). The change set comes from the host's own pipeline (`ChangeSetFixture`); the tests
 * play the host by answering `select-hunks` with a new `change-set`.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { ChangeSetView } from '../../../src/protocol/changeSetView.js';
import { reduceRunEvents } from '../../../src/protocol/reduceRun.js';
import { initialRunState, type RunState } from '../../../src/protocol/runState.js';
import { ChangeSetFixture, changePaths } from '../../fixtures/webview/changeSet.js';
import { richRunEvents, richRunId } from '../../fixtures/webview/richRun.js';
import { artifactsDir, waitForExpression, wrapPage } from './harness.js';
import { usePanelPerTest } from './panelSession.js';

const state: RunState = reduceRunEvents(initialRunState(), richRunEvents('end'));
const ui = usePanelPerTest({ viewport: { width: 420, height: 900 } });

async function show(changeSet: ChangeSetView): Promise<void> {
	await ui.panel.send({ type: 'snapshot', state, runs: [] });
	await ui.panel.send({ type: 'change-set', changeSet });
}

const file = (path: string) => ui.panel.page.locator(`li.change[data-path="${path}"]`);
const hunk = (path: string, id: string) => file(path).locator(`.hunk[data-id="${id}"]`);
const checkbox = (path: string, id: string) => hunk(path, id).locator('input.hunk-check');
const lastPosted = async () => (await ui.panel.posted()).at(-1);
const focusKey = () =>
	ui.panel.page.evaluate('document.activeElement && document.activeElement.dataset.focusKey') as Promise<
		string | null
	>;
const isChecked = (locator: Locator) =>
	locator.evaluate((input) => (input as unknown as { checked: boolean }).checked);
/**
 * A screenshot of one element (the review section) in test-results/webview, taken with the
 * viewport as tall as the page so the sticky header and question box stay out of it.
 */
async function elementShot(locator: Locator, name: string): Promise<string> {
	mkdirSync(artifactsDir, { recursive: true });
	const path = join(artifactsDir, `${name}.png`);
	const page = locator.page();
	const viewport = page.viewportSize() ?? { width: 420, height: 900 };
	const height = (await page.evaluate('document.documentElement.scrollHeight')) as number;
	await page.setViewportSize({ width: viewport.width, height: Math.max(viewport.height, Math.ceil(height)) });
	await ui.panel.frames();
	await locator.screenshot({ path, animations: 'disabled' });
	await page.setViewportSize(viewport);
	await ui.panel.frames();
	return path;
}

/** The element's computed font weight (the root tsconfig has no DOM lib: the page's own function). */
const fontWeight = (locator: Locator) =>
	locator.evaluate(
		(element) =>
			(globalThis as unknown as { getComputedStyle(el: unknown): { fontWeight: string } }).getComputedStyle(
				element,
			).fontWeight,
	);

const isIndeterminate = (locator: Locator) =>
	locator.evaluate((input) => (input as unknown as { indeterminate: boolean }).indeterminate);

describe('change review in the panel', () => {
	it('renders files, +/- counts, hunks with checkboxes, consensus marks, the runner-up alternative and the stale file; fits 420 px', async () => {
		await show(new ChangeSetFixture().view());
		const page = ui.panel.page;

		await expect(
			page
				.locator('li.change')
				.evaluateAll((rows) =>
					rows.map((row) => (row as unknown as { dataset: { path: string } }).dataset.path),
				),
		).resolves.toEqual([changePaths.load, changePaths.docs, changePaths.issues]);
		await expect(page.locator('.changes-title').textContent()).resolves.toBe('Changed files (3)');
		await expect(page.locator('.changes-summary').textContent()).resolves.toBe('4 of 4 changes · +27 −4');
		await expect(file(changePaths.load).locator('.change-lines').textContent()).resolves.toBe('+6−3');
		await expect(file(changePaths.docs).locator('.change-lines').textContent()).resolves.toBe('+5−1');
		await expect(file(changePaths.issues).locator('.change-lines').textContent()).resolves.toBe('+16−0');
		// The selected/total badge appears only when the selection is not the winner's whole change.
		expect(await page.locator('.change-count:not([hidden])').count()).toBe(0);
		await expect(file(changePaths.issues).locator('.change-kind').textContent()).resolves.toBe('added');
		expect(await file(changePaths.issues).locator('.codicon-diff-added').count()).toBe(1);

		// Hunks: all checked, numbered, where they lie in plain words, lines coloured by kind.
		expect(await file(changePaths.load).locator('.hunk:not(.hunk-alt)').count()).toBe(2);
		expect(await page.locator('input.hunk-check').count()).toBe(4);
		for (const input of await page.locator('input.hunk-check').all()) {
			expect(await isChecked(input)).toBe(true);
		}
		for (const input of await page.locator('input.file-check').all()) {
			expect(await isChecked(input)).toBe(true);
			expect(await isIndeterminate(input)).toBe(false);
		}
		await expect(hunk(changePaths.load, 'final#0').locator('.hunk-range').textContent()).resolves.toBe(
			'after line 3 (+2)',
		);
		await expect(hunk(changePaths.load, 'final#1').locator('.hunk-range').textContent()).resolves.toBe(
			'lines 15–17 (+4 −3)',
		);
		await expect(
			file(changePaths.load).locator('.hunk:not(.hunk-alt) .hunk-num').allTextContents(),
		).resolves.toEqual(['1', '2']);
		await expect(hunk(changePaths.load, 'final#1').locator('.hunk-summary').textContent()).resolves.toBe(
			'replaces 3 lines with 4',
		);
		expect(await hunk(changePaths.load, 'final#1').locator('.dl-del').count()).toBe(3);
		expect(await hunk(changePaths.load, 'final#1').locator('.dl-add').count()).toBe(4);
		await expect(
			hunk(changePaths.load, 'final#1').locator('.dl-add .dl-num').allTextContents(),
		).resolves.toEqual(['17', '18', '19', '20']);
		await expect(
			hunk(changePaths.load, 'final#1').locator('.dl-del .dl-num').allTextContents(),
		).resolves.toEqual(['15', '16', '17']);
		await expect(
			hunk(changePaths.load, 'final#1').locator('.dl-add .dl-text').first().textContent(),
		).resolves.toBe('\tconst doc = YAML.parseDocument(text, { keepSourceTokens: true });');

		// Consensus: K of N with the agents in the tooltip; all agreeing highlighted, "only the winner" neutral.
		const all = hunk(changePaths.load, 'final#0').locator('.consensus');
		await expect(all.locator('.consensus-text').textContent()).resolves.toBe('3 of 3 agents');
		await expect(all.getAttribute('data-level')).resolves.toBe('all');
		await expect(all.getAttribute('title')).resolves.toBe(
			'3 of 3 agents made this change: gemini (winner), gpt (agent1.1) and claude (agent2.1)',
		);
		expect(await all.locator('.dot.is-on').count()).toBe(3);
		const two = hunk(changePaths.load, 'final#1').locator('.consensus');
		await expect(two.locator('.consensus-text').textContent()).resolves.toBe('2 of 3 agents');
		await expect(two.getAttribute('data-level')).resolves.toBe('some');
		const solo = hunk(changePaths.docs, 'final#0').locator('.consensus');
		await expect(solo.locator('.consensus-text').textContent()).resolves.toBe('only the winner');
		await expect(solo.getAttribute('data-level')).resolves.toBe('solo');
		await expect(solo.getAttribute('title')).resolves.toBe('1 of 3 agents made this change: gemini (winner)');
		await expect(fontWeight(solo)).resolves.toBe('400');
		await expect(fontWeight(all)).resolves.toBe('600');
		await expect(hunk(changePaths.issues, 'final#0').locator('.consensus-text').textContent()).resolves.toBe(
			'2 of 3 agents',
		);
		await expect(page.locator('.solo-jump').textContent()).resolves.toBe('1 change only the winner made');

		// The runner-up alternative sits right after the winner's hunk it would replace.
		const alternatives = file(changePaths.load).locator('.hunk-alt');
		expect(await alternatives.count()).toBe(1);
		await expect(
			file(changePaths.load)
				.locator('.hunk')
				.evaluateAll((items) =>
					items.map((item) => (item as unknown as { dataset: { id: string } }).dataset.id),
				),
		).resolves.toEqual(['final#0', 'final#1', 'alt#0']);
		const alt = alternatives.first();
		await expect(alt.locator('.consensus-text').textContent()).resolves.toBe('1 of 3 agents');
		await expect(alt.locator('.alt-relation').textContent()).resolves.toBe('claude’s version of change 2');
		await expect(alt.locator('.alt-relation').getAttribute('title')).resolves.toBe('From answer agent2.1');
		await expect(alt.locator('.alt-action').textContent()).resolves.toBe('Use instead');
		await expect(alt.getAttribute('data-selected')).resolves.toBe('false');
		await expect(alt.locator('.alt-state').getAttribute('hidden')).resolves.toBe('');

		// Files the user changed since the team read them: a mark in the row (merged / conflict) and a note in the body.
		const docs = file(changePaths.docs);
		await expect(docs.locator('.change-stale').textContent()).resolves.toBe('edited since: merged');
		await expect(docs.locator('.change-stale').getAttribute('title')).resolves.toMatch(
			/^Edited since the team read it: merged\./,
		);
		await expect(docs.locator('.change-stale-note').textContent()).resolves.toMatch(
			/^Edited since the team read it: merged\. .*keeps your edits/,
		);
		expect(await docs.locator('.change-stale-note').isVisible()).toBe(true);
		const issuesRow = file(changePaths.issues);
		await expect(issuesRow.getAttribute('data-user-edit')).resolves.toBe('conflict');
		await expect(issuesRow.locator('.change-stale').textContent()).resolves.toBe('edited since: conflict');
		await expect(issuesRow.locator('.change-stale-note').textContent()).resolves.toMatch(
			/^Edited since the team read it: conflict\. .*Accepting asks/,
		);
		expect(await file(changePaths.load).locator('.change-stale').isHidden()).toBe(true);
		await expect(file(changePaths.load).getAttribute('data-user-edit')).resolves.toBe('none');
		await expect(page.locator('.changes-note').textContent()).resolves.toContain(
			'2 files were edited since the team read them: accepting keeps your edits and asks about 1 conflict.',
		);

		// Footer.
		await expect(page.locator('.accept-all').textContent()).resolves.toBe('Accept all');
		expect(await page.locator('.accept-all').getAttribute('disabled')).toBeNull();
		await expect(page.locator('.reject-all').textContent()).resolves.toBe('Reject all');

		// Accessible names: every checkbox says which change it is; consensus is its description.
		const named = page.getByRole('checkbox', {
			name: 'Change 2 of 2 in src/config/load.ts, lines 15–17: replaces 3 lines with 4',
		});
		expect(await named.count()).toBe(1);
		await expect(named.getAttribute('aria-describedby')).resolves.toBe(await two.getAttribute('id'));
		expect(await page.getByRole('checkbox', { name: 'Include the changes to docs/config.md' }).count()).toBe(
			1,
		);
		expect(
			await page
				.getByRole('button', { name: 'Use claude’s change at line 16 instead of the winner’s change 2' })
				.count(),
		).toBe(1);

		const overflow = await page.evaluate(
			'document.documentElement.scrollWidth - document.documentElement.clientWidth',
		);
		expect(overflow).toBe(0);
		await elementShot(page.locator('.changes'), 'hunks');
	});

	it('an agent whose change differs only in a name counts as similar: "2 of 3 agents (similar)", not highlighted', async () => {
		const view = new ChangeSetFixture().view();
		const docs = view.files.find((one) => one.path === changePaths.docs)!;
		const similar: ChangeSetView = {
			...view,
			files: view.files.map((one) =>
				one === docs ? { ...one, hunks: [{ ...docs.hunks[0]!, similar: ['claude'] }] } : one,
			),
		};
		await show(similar);
		const mark = hunk(changePaths.docs, 'final#0').locator('.consensus');
		await expect(mark.locator('.consensus-text').textContent()).resolves.toBe('2 of 3 agents (similar)');
		await expect(mark.getAttribute('data-level')).resolves.toBe('some');
		await expect(mark.getAttribute('title')).resolves.toBe(
			'2 of 3 agents (similar) made this change: gemini (winner); a similar change (other names): claude',
		);
		expect(await mark.locator('.dot.is-on').count()).toBe(2);
		// No longer a change only the winner made.
		expect(await ui.panel.page.locator('.solo-jump').isHidden()).toBe(true);
	});

	it('toggling a hunk posts select-hunks, updates the counts at once, and the host’s new change set keeps focus and scroll on that checkbox', async () => {
		const host = new ChangeSetFixture();
		await show(host.view());
		const page = ui.panel.page;
		const target = checkbox(changePaths.load, 'final#1');
		await target.scrollIntoViewIfNeeded();
		await page.evaluate('window.scrollBy(0, 40)');
		await target.focus();
		await target.evaluate((input) => {
			(input as unknown as { __marker: number }).__marker = 1;
		});
		const scrollBefore = (await page.evaluate('window.scrollY')) as number;
		const topBefore = await target.evaluate((input) => input.getBoundingClientRect().top);

		// Space on the focused checkbox (keyboard), not a click.
		await page.keyboard.press('Space');
		expect(await lastPosted()).toEqual({
			type: 'select-hunks',
			runId: richRunId,
			path: changePaths.load,
			ids: ['final#1'],
			selected: false,
		});
		expect(await isChecked(target)).toBe(false);
		// The panel shows the new selection before the host answers.
		await expect(file(changePaths.load).locator('.change-lines').textContent()).resolves.toBe('+2−0');
		await expect(file(changePaths.load).locator('.change-count').textContent()).resolves.toBe('1/2');
		await expect(file(changePaths.load).getAttribute('data-pending')).resolves.toBe('true');
		expect(await isIndeterminate(file(changePaths.load).locator('input.file-check'))).toBe(true);
		await expect(hunk(changePaths.load, 'final#1').getAttribute('data-selected')).resolves.toBe('false');
		await expect(page.locator('.changes-summary').textContent()).resolves.toBe('3 of 4 changes · +23 −1');
		await expect(page.locator('.accept-all').textContent()).resolves.toBe('Accept selected');

		// The host answers with a new change set (new objects for everything).
		const rendersBefore = await ui.panel.renders();
		await ui.panel.send({
			type: 'change-set',
			changeSet: host.select(changePaths.load, ['final#1'], false).view(),
		});
		expect(await ui.panel.renders()).toBeGreaterThan(rendersBefore);
		expect(await focusKey()).toBe(`hunk:${changePaths.load}#final#1`);
		expect(await target.evaluate((input) => (input as unknown as { __marker?: number }).__marker)).toBe(1);
		expect(
			await target.evaluate(
				(input) =>
					input ===
					(input as unknown as { ownerDocument: { activeElement: unknown } }).ownerDocument.activeElement,
			),
		).toBe(true);
		expect(await page.evaluate('window.scrollY')).toBe(scrollBefore);
		expect(await target.evaluate((input) => input.getBoundingClientRect().top)).toBe(topBefore);
		expect(await isChecked(target)).toBe(false);
		await expect(file(changePaths.load).getAttribute('data-pending')).resolves.toBe('false');
		await expect(file(changePaths.load).locator('.change-lines').textContent()).resolves.toBe('+2−0');

		// Space again switches it back on.
		await page.keyboard.press('Space');
		expect(await lastPosted()).toEqual({
			type: 'select-hunks',
			runId: richRunId,
			path: changePaths.load,
			ids: ['final#1'],
			selected: true,
		});
		await ui.panel.send({
			type: 'change-set',
			changeSet: host.select(changePaths.load, ['final#1'], true).view(),
		});
		expect(await isChecked(target)).toBe(true);
		expect(await focusKey()).toBe(`hunk:${changePaths.load}#final#1`);
		await expect(file(changePaths.load).locator('.change-lines').textContent()).resolves.toBe('+6−3');
		expect(await isIndeterminate(file(changePaths.load).locator('input.file-check'))).toBe(false);

		// A stale answer (the host had not seen the last toggle yet) does not flip the checkbox back.
		await page.keyboard.press('Space');
		await ui.panel.send({ type: 'change-set', changeSet: host.view() });
		expect(await isChecked(target)).toBe(false);
		await ui.panel.send({
			type: 'change-set',
			changeSet: host.select(changePaths.load, ['final#1'], false).view(),
		});
		expect(await isChecked(target)).toBe(false);
		await expect(file(changePaths.load).getAttribute('data-pending')).resolves.toBe('false');
	});

	it('"Use instead" takes the runner-up’s hunk (the winner’s is switched off), "Use winner’s" goes back, and "Add" takes an extra change', async () => {
		const host = new ChangeSetFixture();
		await show(host.view());
		const page = ui.panel.page;
		const alt = hunk(changePaths.load, 'alt#0');
		await alt.locator('.alt-action').click();
		expect(await lastPosted()).toEqual({
			type: 'select-hunks',
			runId: richRunId,
			path: changePaths.load,
			ids: ['alt#0'],
			selected: true,
		});
		// At once: the alternative is in use and the winner's overlapping hunk is off.
		await expect(alt.getAttribute('data-selected')).resolves.toBe('true');
		expect(await isChecked(checkbox(changePaths.load, 'final#1'))).toBe(false);
		await expect(hunk(changePaths.load, 'final#1').locator('.hunk-replaced').textContent()).resolves.toBe(
			'replaced by claude’s version',
		);

		await ui.panel.send({
			type: 'change-set',
			changeSet: host.select(changePaths.load, ['alt#0'], true).view(),
		});
		await expect(alt.getAttribute('data-selected')).resolves.toBe('true');
		expect(await alt.locator('.alt-icon .codicon-pass-filled').count()).toBe(1);
		await expect(alt.locator('.alt-state').getAttribute('hidden')).resolves.toBeNull();
		await expect(alt.locator('.alt-action').textContent()).resolves.toBe('Use winner’s');
		expect(await isChecked(checkbox(changePaths.load, 'final#1'))).toBe(false);
		// Host counts: imports (+2) and claude's 1 → 2 lines.
		await expect(file(changePaths.load).locator('.change-lines').textContent()).resolves.toBe('+4−1');
		await expect(file(changePaths.load).locator('.change-count').textContent()).resolves.toBe('1/2 +1');
		expect(await isChecked(file(changePaths.load).locator('input.file-check'))).toBe(true);
		expect(await isIndeterminate(file(changePaths.load).locator('input.file-check'))).toBe(false);
		await expect(page.locator('.changes-summary').textContent()).resolves.toBe(
			'3 of 4 changes + 1 runner-up · +25 −2',
		);
		expect(await focusKey()).toBe(`alt:${changePaths.load}#alt#0`);
		await elementShot(file(changePaths.load), 'hunks-alternative');

		await alt.locator('.alt-action').click();
		expect(await lastPosted()).toEqual({
			type: 'select-hunks',
			runId: richRunId,
			path: changePaths.load,
			ids: ['final#1'],
			selected: true,
		});
		await ui.panel.send({
			type: 'change-set',
			changeSet: host.select(changePaths.load, ['final#1'], true).view(),
		});
		await expect(alt.getAttribute('data-selected')).resolves.toBe('false');
		expect(await isChecked(checkbox(changePaths.load, 'final#1'))).toBe(true);
		await expect(alt.locator('.alt-action').textContent()).resolves.toBe('Use instead');

		// The runner-up's version of the file opens in a diff (answer label as the version).
		await alt
			.getByRole('button', { name: 'Open the diff of claude’s version of src/config/load.ts' })
			.click();
		expect(await lastPosted()).toEqual({
			type: 'open-diff',
			runId: richRunId,
			path: changePaths.load,
			version: 'agent2.1',
		});

		// An extra change (replaces nothing) is offered with "Add".
		const extras = new ChangeSetFixture({ extra: true });
		await ui.panel.send({ type: 'change-set', changeSet: extras.view() });
		await expect(file(changePaths.load).locator('.hunk-group-head').textContent()).resolves.toBe(
			'Extra changes from runner-ups (1)',
		);
		const extra = hunk(changePaths.load, 'alt#0');
		await expect(extra.getAttribute('data-kind')).resolves.toBe('extra');
		await expect(extra.locator('.alt-relation').textContent()).resolves.toBe('claude’s extra change');
		await expect(extra.locator('.hunk-summary').textContent()).resolves.toBe('adds 1 line');
		await expect(extra.locator('.alt-action').textContent()).resolves.toBe('Add');
		await expect(
			file(changePaths.load)
				.locator('.hunk')
				.evaluateAll((items) =>
					items.map((item) => (item as unknown as { dataset: { id: string } }).dataset.id),
				),
		).resolves.toEqual(['final#0', 'final#1', 'alt#1', 'alt#0']);
		await extra.locator('.alt-action').click();
		expect(await lastPosted()).toEqual({
			type: 'select-hunks',
			runId: richRunId,
			path: changePaths.load,
			ids: ['alt#0'],
			selected: true,
		});
		await ui.panel.send({
			type: 'change-set',
			changeSet: extras.select(changePaths.load, ['alt#0'], true).view(),
		});
		await expect(extra.locator('.alt-action').textContent()).resolves.toBe('Remove');
		// Adding an extra keeps every winner hunk.
		expect(await isChecked(checkbox(changePaths.load, 'final#1'))).toBe(true);
		await extra.locator('.alt-action').click();
		expect(await lastPosted()).toEqual({
			type: 'select-hunks',
			runId: richRunId,
			path: changePaths.load,
			ids: ['alt#0'],
			selected: false,
		});
	});

	it('Accept posts the run id alone when everything is selected, and the hunks of every file otherwise (also before the host answers); Reject all', async () => {
		const host = new ChangeSetFixture();
		await show(host.view());
		const page = ui.panel.page;
		const accept = page.locator('.accept-all');

		await accept.click();
		expect(await lastPosted()).toEqual({ type: 'accept', runId: richRunId });

		// Drop the change only the winner made and take the runner-up's hunk; accept right away.
		await checkbox(changePaths.docs, 'final#0').click();
		await hunk(changePaths.load, 'alt#0').locator('.alt-action').click();
		await expect(accept.textContent()).resolves.toBe('Accept selected');
		await accept.click();
		const expected = {
			type: 'accept',
			runId: richRunId,
			hunks: [
				{ path: changePaths.load, ids: ['final#0', 'alt#0'] },
				{ path: changePaths.docs, ids: [] },
				{ path: changePaths.issues, ids: ['final#0'] },
			],
		};
		expect(await lastPosted()).toEqual(expected);

		// Same after the host has caught up.
		host.select(changePaths.docs, ['final#0'], false).select(changePaths.load, ['alt#0'], true);
		await ui.panel.send({ type: 'change-set', changeSet: host.view() });
		await accept.click();
		expect(await lastPosted()).toEqual(expected);

		// Back to the default selection: the plain form again.
		await checkbox(changePaths.docs, 'final#0').click();
		await hunk(changePaths.load, 'alt#0').locator('.alt-action').click();
		host.select(changePaths.docs, ['final#0'], true).select(changePaths.load, ['final#1'], true);
		await ui.panel.send({ type: 'change-set', changeSet: host.view() });
		await expect(accept.textContent()).resolves.toBe('Accept all');
		await accept.click();
		expect(await lastPosted()).toEqual({ type: 'accept', runId: richRunId });

		// Nothing selected: Accept is disabled.
		for (const path of Object.values(changePaths)) await file(path).locator('input.file-check').click();
		expect(await accept.getAttribute('disabled')).not.toBeNull();
		await expect(page.locator('.changes-summary').textContent()).resolves.toBe('0 of 4 changes · +0 −0');
		const before = (await ui.panel.posted()).length;
		await accept.click({ force: true });
		expect((await ui.panel.posted()).length).toBe(before);

		await page.locator('.reject-all').click();
		expect(await lastPosted()).toEqual({ type: 'reject', runId: richRunId });
	});

	it('the file checkbox switches all of a file’s changes; Open diff; the solo link focuses the change only the winner made', async () => {
		const host = new ChangeSetFixture();
		await show(host.view());
		const page = ui.panel.page;
		const fileCheck = file(changePaths.load).locator('input.file-check');

		await fileCheck.click();
		expect(await lastPosted()).toEqual({
			type: 'select-hunks',
			runId: richRunId,
			path: changePaths.load,
			ids: ['final#0', 'final#1'],
			selected: false,
		});
		expect(await isChecked(checkbox(changePaths.load, 'final#0'))).toBe(false);
		expect(await isChecked(checkbox(changePaths.load, 'final#1'))).toBe(false);
		await ui.panel.send({
			type: 'change-set',
			changeSet: host.select(changePaths.load, ['final#0', 'final#1'], false).view(),
		});
		expect(await isChecked(fileCheck)).toBe(false);
		await expect(file(changePaths.load).getAttribute('data-selection')).resolves.toBe('none');

		// Some selected: the file checkbox is mixed, and a click selects the rest.
		await checkbox(changePaths.load, 'final#0').click();
		await ui.panel.send({
			type: 'change-set',
			changeSet: host.select(changePaths.load, ['final#0'], true).view(),
		});
		expect(await isIndeterminate(fileCheck)).toBe(true);
		await fileCheck.click();
		expect(await lastPosted()).toEqual({
			type: 'select-hunks',
			runId: richRunId,
			path: changePaths.load,
			ids: ['final#1'],
			selected: true,
		});
		expect(await isChecked(fileCheck)).toBe(true);
		expect(await isIndeterminate(fileCheck)).toBe(false);

		await page.getByRole('button', { name: `Open diff of ${changePaths.docs}` }).click();
		expect(await lastPosted()).toEqual({ type: 'open-diff', runId: richRunId, path: changePaths.docs });

		await page.locator('.solo-jump').click();
		expect(await focusKey()).toBe(`hunk:${changePaths.docs}#final#0`);
	});

	it('collapses and expands a file’s hunks by keyboard, and remembers it across a reload', async () => {
		const changeSet = new ChangeSetFixture().view();
		await show(changeSet);
		const page = ui.panel.page;
		const twisty = file(changePaths.load).locator('.change-twisty');
		await expect(twisty.getAttribute('aria-expanded')).resolves.toBe('true');
		await expect(twisty.getAttribute('aria-label')).resolves.toBe(`Hide the changes to ${changePaths.load}`);
		await twisty.focus();
		await page.keyboard.press('Enter');
		await expect(twisty.getAttribute('aria-expanded')).resolves.toBe('false');
		expect(await file(changePaths.load).locator('.change-body').isHidden()).toBe(true);
		expect(await focusKey()).toBe(`twisty:${changePaths.load}`);
		await page.keyboard.press('Space');
		await expect(twisty.getAttribute('aria-expanded')).resolves.toBe('true');
		await page.keyboard.press('Space');
		await expect(twisty.getAttribute('aria-expanded')).resolves.toBe('false');
		// The checkbox states of a collapsed file still count.
		await expect(page.locator('.changes-summary').textContent()).resolves.toBe('4 of 4 changes · +27 −4');

		await new Promise((resolve) => setTimeout(resolve, 400));
		await page.reload();
		await waitForExpression(page, 'window.__posted.length > 0');
		ui.panel = wrapPage(page, ui.panel.consoleErrors);
		await show(changeSet);
		await expect(
			file(changePaths.load).locator('.change-twisty').getAttribute('aria-expanded'),
		).resolves.toBe('false');
		expect(await file(changePaths.load).locator('.change-body').isHidden()).toBe(true);
		await expect(
			file(changePaths.docs).locator('.change-twisty').getAttribute('aria-expanded'),
		).resolves.toBe('true');
	});

	it('long hunks show their first lines with "Show N more lines"; lines the host left out point to the diff editor', async () => {
		const lines = Array.from({ length: 400 }, (_, i) => `+export const line${i + 1} = ${i + 1};`);
		const big: ChangeSetView = {
			runId: richRunId,
			winner: { agentId: 'gemini', label: 'agent3.final' },
			agentCount: 1,
			files: [
				{
					path: 'src/generated/table.ts',
					kind: 'add',
					renamedFrom: null,
					added: 450,
					removed: 0,
					userEdit: 'none',
					hunks: [
						{
							id: 'final#0',
							oldStart: 1,
							oldLines: 0,
							newStart: 1,
							newLines: 450,
							lines,
							truncated: 50,
							selected: true,
							agents: ['gemini'],
							sources: ['agent3.final'],
							replaces: [],
						},
					],
					alternatives: [],
				},
				// Nothing to pick (no hunks): no checkbox, nothing to expand.
				{
					path: 'src/unchanged.ts',
					kind: 'modify',
					renamedFrom: null,
					added: 0,
					removed: 0,
					userEdit: 'none',
					hunks: [],
					alternatives: [],
				},
			],
		};
		await show(big);
		const empty = file('src/unchanged.ts');
		expect(await empty.locator('.file-check').isHidden()).toBe(true);
		expect(await empty.locator('.change-twisty').isHidden()).toBe(true);
		expect(await empty.locator('.change-body').isHidden()).toBe(true);
		await expect(empty.locator('.change-lines').textContent()).resolves.toBe('+0−0');
		const page = ui.panel.page;
		const row = file('src/generated/table.ts');
		// A big added file starts collapsed; one agent: no consensus marks.
		await expect(row.locator('.change-twisty').getAttribute('aria-expanded')).resolves.toBe('false');
		expect(await page.locator('.solo-jump').isHidden()).toBe(true);
		await row.locator('.change-twisty').click();
		expect(await row.locator('.consensus').isHidden()).toBe(true);
		expect(await row.locator('.dl').count()).toBe(16);
		await expect(row.locator('.diff-more').textContent()).resolves.toBe('Show 384 more lines');
		await expect(row.locator('.diff-truncated').textContent()).resolves.toBe(
			'50 more lines not shown here. Open the diff',
		);
		await row.locator('.diff-more').click();
		expect(await row.locator('.dl').count()).toBe(400);
		expect(await row.locator('.diff-more').count()).toBe(0);
		await row.locator('.diff-open').click();
		expect(await lastPosted()).toEqual({
			type: 'open-diff',
			runId: richRunId,
			path: 'src/generated/table.ts',
		});
		const overflow = await page.evaluate(
			'document.documentElement.scrollWidth - document.documentElement.clientWidth',
		);
		expect(overflow).toBe(0);
	});

	it('a change set with many files starts with every file collapsed (hunks are built only when a file is opened)', async () => {
		const hunkOf = (n: number) => ({
			id: 'final#0',
			oldStart: n,
			oldLines: 1,
			newStart: n,
			newLines: 1,
			lines: [`-old ${n}`, `+new ${n}`],
			truncated: 0,
			selected: true,
			agents: ['gemini'],
			sources: ['agent3.final'],
			replaces: [],
		});
		const many: ChangeSetView = {
			runId: richRunId,
			winner: { agentId: 'gemini', label: 'agent3.final' },
			agentCount: 3,
			files: Array.from({ length: 13 }, (_, i) => ({
				path: `src/mod${i}.ts`,
				kind: 'modify' as const,
				renamedFrom: null,
				added: 1,
				removed: 1,
				userEdit: 'none' as const,
				hunks: [hunkOf(i + 1)],
				alternatives: [],
			})),
		};
		await show(many);
		const page = ui.panel.page;
		await expect(
			page
				.locator('.change-twisty')
				.evaluateAll((items) => items.map((item) => item.getAttribute('aria-expanded'))),
		).resolves.toEqual(Array(13).fill('false'));
		expect(await page.locator('.hunk').count()).toBe(0);
		await expect(page.locator('.changes-summary').textContent()).resolves.toBe('13 of 13 changes · +13 −13');
		await expect(page.locator('.solo-jump').textContent()).resolves.toBe('13 changes only the winner made');
		// The solo link opens the file it goes to.
		await page.locator('.solo-jump').click();
		expect(await focusKey()).toBe('hunk:src/mod0.ts#final#0');
		expect(await page.locator('.hunk').count()).toBe(1);
		await expect(file('src/mod0.ts').locator('.change-twisty').getAttribute('aria-expanded')).resolves.toBe(
			'true',
		);
	});

	it('a new run started while the old change set is pending does not show the old run’s hunks', async () => {
		await show(new ChangeSetFixture().view());
		const page = ui.panel.page;
		expect(await page.locator('.hunk').count()).toBe(5);
		const next = richRunEvents('live')
			.slice(0, 6)
			.map((event) => ({ ...event, runId: '20260116-090000-next' }));
		await ui.panel.send({ type: 'events', events: next });
		await expect(page.locator('h1.question').textContent()).resolves.toContain('input validation');
		expect(await page.locator('.changes').isHidden()).toBe(true);
		expect(await page.locator('.hunk:visible').count()).toBe(0);
	});
});
