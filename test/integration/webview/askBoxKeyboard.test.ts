/**
 * The ask box from the keyboard in the real panel bundle: Enter asks, Shift+Enter is a new line, an
 * Enter that commits an IME composition does not ask, the host's `focus-ask` gives the box the
 * keyboard and re-renders keep it there; the "starting" line shows from the moment a question is
 * sent until the run's first event, a refusal or the run's end.
 */
import type { Page } from 'playwright-core';
import type { RunEventOf } from '../../../src/contract/runEvents.js';
import { describe, expect, it } from 'vitest';
import { reduceRunEvents } from '../../../src/protocol/reduceRun.js';
import { initialRunState } from '../../../src/protocol/runState.js';
import { richRunEvents } from '../../fixtures/webview/richRun.js';
import { demoEvents } from './harness.js';
import { usePanelPerTest } from './panelSession.js';

const ui = usePanelPerTest({
	afterOpen: async (p) => {
		await p.send({ type: 'snapshot', state: null, runs: [] });
	},
});

const asks = async () =>
	((await ui.panel.posted()) as { type: string }[]).filter((message) => message.type === 'ask');

const question = (page: Page) =>
	page.locator('#ask-input').evaluate((element) => (element as unknown as { value: string }).value);

const focusedId = (page: Page) =>
	page.evaluate(`document.activeElement && document.activeElement.getAttribute('id')`);

const starting = (page: Page) => page.locator('.ask-starting');

describe('ask box from the keyboard', () => {
	it('focus-ask gives the box the keyboard: typing goes in, Enter asks, the box is empty after it', async () => {
		const page = ui.panel.page;
		expect(await focusedId(page)).not.toBe('ask-input');
		await ui.panel.send({ type: 'focus-ask' });
		expect(await focusedId(page)).toBe('ask-input');
		await page.keyboard.type('What does hello.ts export?');
		await page.keyboard.press('Enter');
		expect(await asks()).toEqual([{ type: 'ask', question: 'What does hello.ts export?' }]);
		expect(await question(page)).toBe('');
		expect(await page.locator('.ask-hint').textContent()).toBe('Enter to ask, Shift+Enter for a new line');
	});

	it('Shift+Enter types a new line and sends nothing (nor does Alt+Enter); Ctrl+Enter still asks', async () => {
		const page = ui.panel.page;
		await ui.panel.send({ type: 'focus-ask' });
		await page.keyboard.type('First line');
		await page.keyboard.press('Shift+Enter');
		await page.keyboard.type('second line');
		await page.keyboard.press('Alt+Enter');
		expect(await asks()).toEqual([]);
		expect(await question(page)).toBe('First line\nsecond line');
		await page.keyboard.press('Control+Enter');
		expect(await asks()).toEqual([{ type: 'ask', question: 'First line\nsecond line' }]);
	});

	it('an Enter that commits an IME composition does not ask; the next Enter does', async () => {
		const page = ui.panel.page;
		await ui.panel.send({ type: 'focus-ask' });
		await page.keyboard.type('日本語');
		// What Chromium sends when Enter ends a composition: a keydown with isComposing (key code 229).
		await page.evaluate(`(() => {
			const target = document.querySelector('#ask-input');
			for (const init of [{ isComposing: true }, { keyCode: 229 }]) {
				target.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, composed: true, cancelable: true, ...init }));
			}
		})()`);
		expect(await asks()).toEqual([]);
		await page.keyboard.press('Enter');
		expect(await asks()).toEqual([{ type: 'ask', question: '日本語' }]);
	});

	it('re-renders while the user types keep the focus and the caret in the box', async () => {
		const page = ui.panel.page;
		const state = reduceRunEvents(initialRunState(), richRunEvents('live').slice(0, 6));
		await ui.panel.send({ type: 'snapshot', state, runs: [] });
		await ui.panel.send({ type: 'focus-ask' });
		await page.keyboard.type('Also ');
		const rendersBefore = await ui.panel.renders();
		await ui.panel.send({ type: 'events', events: richRunEvents('live').slice(6, 20) });
		await ui.panel.send({ type: 'runs', runs: [] });
		expect(await ui.panel.renders()).toBeGreaterThan(rendersBefore);
		expect(await focusedId(page)).toBe('ask-input');
		await page.keyboard.type('a CHANGELOG?');
		expect(await question(page)).toBe('Also a CHANGELOG?');
	});

	it('"Starting the team…" shows the moment a question is sent and goes when the run’s first event arrives', async () => {
		const page = ui.panel.page;
		await ui.panel.send({ type: 'focus-ask' });
		expect(await starting(page).isHidden()).toBe(true);
		await page.keyboard.type('How should we document this project?');
		await page.keyboard.press('Enter');
		// No host message in between: the webview shows it on its own.
		expect(await starting(page).isVisible()).toBe(true);
		expect(await starting(page).textContent()).toBe('Starting the team…');
		expect(await starting(page).getAttribute('role')).toBe('status');
		await ui.panel.screenshot('ask-box-starting', false);
		await ui.panel.send({ type: 'events', events: demoEvents().slice(0, 1) });
		expect(await starting(page).isHidden()).toBe(true);
	});

	it('a follow-up shows it until its own run starts (the shown run’s later events do not end it)', async () => {
		const page = ui.panel.page;
		const events = demoEvents();
		const finished = reduceRunEvents(initialRunState(), events);
		await ui.panel.send({ type: 'snapshot', state: finished, runs: [] });
		await ui.panel.send({ type: 'focus-ask' });
		await page.keyboard.type('And a changelog?');
		await page.keyboard.press('Enter');
		expect(await starting(page).isVisible()).toBe(true);
		await ui.panel.send({ type: 'change-set', changeSet: null });
		expect(await starting(page).isVisible()).toBe(true);
		const start = { ...events[0]!, runId: '20261130-040000-next', question: 'And a changelog?' };
		await ui.panel.send({ type: 'events', events: [start] });
		expect(await page.locator('h1.question').textContent()).toContain('And a changelog?');
		expect(await starting(page).isHidden()).toBe(true);
	});

	it('a question given back leaves the box when it runs after all (the no-model offer); typed-over text stays', async () => {
		const page = ui.panel.page;
		const start = demoEvents()[0] as RunEventOf<'run-start'>;
		const run = (runId: string, asked: string) => ({ ...start, runId, question: asked });
		await ui.panel.send({ type: 'focus-ask' });
		await page.keyboard.type('Where do I start?');
		await page.keyboard.press('Enter');
		await ui.panel.send({
			type: 'ask-refused',
			question: 'Where do I start?',
			attachments: [],
			reason: 'no model yet. Choose one in the notification and the question runs.',
		});
		expect(await question(page)).toBe('Where do I start?');
		// Another question's run leaves it where it is.
		await ui.panel.send({
			type: 'events',
			events: [{ ...start, runId: '20261202-000000-other', question: 'Other?' }],
		});
		expect(await question(page)).toBe('Where do I start?');
		// Its own run (Try the Demo Team in the notification): the box and the notice empty.
		await ui.panel.send({
			type: 'events',
			events: [run('20261202-000001-mine', 'Where do I start?')],
		});
		expect(await question(page)).toBe('');
		expect(await page.locator('.ask-notice').isHidden()).toBe(true);

		// Given back and then edited by the user: the user's text is theirs.
		await page.keyboard.type('Why?');
		await page.keyboard.press('Enter');
		await ui.panel.send({ type: 'ask-refused', question: 'Why?', attachments: [], reason: 'no model yet' });
		await page.locator('#ask-input').click();
		await page.keyboard.type(' And how?');
		await ui.panel.send({
			type: 'events',
			events: [{ ...start, runId: '20261202-000002-why', question: 'Why?' }],
		});
		expect(await question(page)).toBe('Why? And how?');
	});

	it('a refusal replaces it with the reason; a run that ends with no event ends it too', async () => {
		const page = ui.panel.page;
		await ui.panel.send({ type: 'focus-ask' });
		await page.keyboard.type('Why?');
		await page.keyboard.press('Enter');
		await ui.panel.send({ type: 'ask-refused', question: 'Why?', attachments: [], reason: 'no team config' });
		expect(await starting(page).isHidden()).toBe(true);
		expect(await page.locator('.ask-notice').textContent()).toBe('Not asked: no team config');
		expect(await question(page)).toBe('Why?');
		await page.keyboard.press('Enter');
		expect(await starting(page).isVisible()).toBe(true);
		await ui.panel.send({ type: 'runs', runs: [] });
		expect(await starting(page).isHidden()).toBe(true);
	});

	it('the Plan toggle from the keyboard: Tab reaches it, Space presses it (aria-pressed), the question goes as a plan; pressed again, a question again', async () => {
		const page = ui.panel.page;
		const toggle = page.locator('#ask-plan');
		const placeholder = () => page.locator('#ask-input').getAttribute('placeholder');
		expect(await toggle.getAttribute('aria-pressed')).toBe('false');
		await ui.panel.send({ type: 'focus-ask' });
		await page.keyboard.type('Add a --verbose flag to the CLI');
		// From the box: the "+" button, then the toggle.
		for (let i = 0; i < 5 && (await focusedId(page)) !== 'ask-plan'; i++) await page.keyboard.press('Tab');
		expect(await focusedId(page)).toBe('ask-plan');
		await page.keyboard.press('Space');
		expect(await toggle.getAttribute('aria-pressed')).toBe('true');
		expect(await toggle.getAttribute('aria-label')).toBe('Plan mode');
		expect(await page.locator('#ask-button').textContent()).toBe('Plan');
		expect(await page.locator('#ask-button').getAttribute('aria-label')).toBe('Make the plan');
		expect(await page.locator('.ask-hint').textContent()).toBe('Enter to plan, Shift+Enter for a new line');
		expect(await placeholder()).toBe('Describe a task for the team to plan… (# adds context)');
		await ui.panel.screenshot('ask-box-plan-toggle', false);
		await page.locator('#ask-input').focus();
		await page.keyboard.press('Enter');
		expect(await asks()).toEqual([
			{ type: 'ask', question: 'Add a --verbose flag to the CLI', mode: 'plan' },
		]);
		// It stays on for the next task until the user turns it off (Enter on the button works too).
		expect(await toggle.getAttribute('aria-pressed')).toBe('true');
		await toggle.focus();
		await page.keyboard.press('Enter');
		expect(await toggle.getAttribute('aria-pressed')).toBe('false');
		expect(await page.locator('#ask-button').textContent()).toBe('Ask');
		await page.locator('#ask-input').focus();
		await page.keyboard.type('Why?');
		await page.keyboard.press('Enter');
		expect((await asks()).at(-1)).toEqual({ type: 'ask', question: 'Why?' });
	});
});
