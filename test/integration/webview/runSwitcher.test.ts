/**
 * The run switcher in a side bar (290 px): the window's runs by question and state in one select
 * that fits, reachable by keyboard; picking a run posts open-run for it; a queued run cannot be
 * picked; a run that appears while another is shown is announced; one run alone shows no switcher.
 */
import { describe, expect, it } from 'vitest';
import type { RunEvent, RunEventBody } from '../../../src/contract/runEvents.js';
import type { SwitcherRun } from '../../../src/protocol/messages.js';
import { reduceRunEvents } from '../../../src/protocol/reduceRun.js';
import { initialRunState } from '../../../src/protocol/runState.js';
import { parseWebviewMessage } from '../../../src/protocol/webviewMessageSchema.js';
import { usePanelPerTest } from './panelSession.js';

const ui = usePanelPerTest({ viewport: { width: 290, height: 720 } });

const A = '20261203-060000-aaaa';
const B = '20261203-060100-bbbb';
const bodies: RunEventBody[] = [
	{
		type: 'run-start',
		question: 'Why is the build of the extension so slow on a cold cache?',
		workspace: '/tmp/ws',
		agents: [{ agentId: 'architect', anonId: 'agent1', provider: 'openai', model: 'm' }],
	},
	{ type: 'round-start', agentId: 'architect', round: 1, snapshot: [] },
];
const state = reduceRunEvents(
	initialRunState(),
	bodies.map((body, seq) => ({ runId: A, seq, t: seq * 10, ...body }) as RunEvent),
);
const row = (over: Partial<SwitcherRun> & Pick<SwitcherRun, 'key' | 'name'>): SwitcherRun => ({
	runId: null,
	state: 'working',
	waiting: 0,
	shown: false,
	...over,
});
const two: SwitcherRun[] = [
	row({
		key: 't1',
		runId: A,
		name: 'Why is the build of the extension so slow on a cold cache?',
		shown: true,
	}),
	row({ key: 't2', runId: B, name: 'Rename the config loader', state: 'approval', waiting: 1 }),
];

describe('the run switcher in a narrow side bar', () => {
	it('lists the runs by question and state within 290 px; picking one by keyboard posts open-run for it', async () => {
		const page = ui.panel.page;
		await ui.panel.send({ type: 'snapshot', state, runs: [], liveRuns: two });
		const select = page.getByRole('combobox', { name: 'Runs of this window' });
		await select.waitFor({ state: 'visible', timeout: 5_000 });
		expect(await select.locator('option').allTextContents()).toEqual([
			'Why is the build of the extension so slow on a cold cache? — working',
			'Rename the config loader — needs approval',
		]);
		expect(await select.inputValue()).toBe('t1');
		// It fits the bar: no horizontal scroll, the select inside the page's width.
		const box = (await select.boundingBox())!;
		expect(box.x + box.width).toBeLessThanOrEqual(290);
		expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(290);
		await ui.panel.screenshot('run-switcher-290');

		await select.focus();
		await page.keyboard.press('ArrowDown');
		const posted = (await ui.panel.posted()).filter((m) => (m as { type: string }).type === 'open-run');
		expect(posted).toEqual([{ type: 'open-run', runId: B }]);
		expect(parseWebviewMessage(posted[0])).toEqual({ ok: true, message: posted[0] });
	});

	it('a queued run is listed but cannot be picked; a new run is announced; one run alone shows no switcher', async () => {
		const page = ui.panel.page;
		await ui.panel.send({ type: 'snapshot', state, runs: [], liveRuns: two.slice(0, 1) });
		const nav = page.locator('nav.run-switcher');
		await page.locator('.run-header').waitFor({ state: 'visible', timeout: 5_000 });
		expect(await nav.isHidden()).toBe(true);

		await ui.panel.send({
			type: 'live-runs',
			runs: [...two, row({ key: 't3', name: 'Third question', state: 'queued' })],
		});
		await nav.waitFor({ state: 'visible', timeout: 5_000 });
		const queued = nav.locator('option', { hasText: 'Third question' });
		expect(await queued.textContent()).toBe('Third question — waiting in the queue');
		expect(await queued.isDisabled()).toBe(true);
		// Both new rows are announced (the last one stays in the live region).
		expect(await page.locator('#app > [role="status"]').textContent()).toBe(
			'New run: Third question. It is in the run switcher at the top.',
		);
		const select = nav.locator('select');
		await select.selectOption('t3', { force: true }).catch(() => undefined);
		expect((await ui.panel.posted()).filter((m) => (m as { type: string }).type === 'open-run')).toEqual([]);
	});
});
