/**
 * The run header lists what was attached to the question (`run-start.attachments`): kind, source
 * and lines, kept in RunState by the shared reducer.
 */
import { describe, expect, it } from 'vitest';
import type { AttachmentRecord, RunEvent } from '../../../src/contract/runEvents.js';
import { reduceRunEvents } from '../../../src/protocol/reduceRun.js';
import { initialRunState } from '../../../src/protocol/runState.js';
import { usePanelPerTest } from './panelSession.js';

const ui = usePanelPerTest();

const record = (fields: Partial<AttachmentRecord> & Pick<AttachmentRecord, 'kind' | 'source'>) => ({
	bytes: 10,
	sha256: '0'.repeat(64),
	...fields,
});

function runStart(runId: string, attachments?: AttachmentRecord[]): RunEvent {
	return {
		runId,
		seq: 0,
		t: 0,
		type: 'run-start',
		question: 'Fix: x is not defined',
		workspace: '/home/dev/app',
		agents: [{ agentId: 'a', anonId: 'agent1', provider: 'scripted', model: 'm' }],
		...(attachments ? { attachments } : {}),
	};
}

describe('run header attachments', () => {
	it('keeps the records in RunState and lists kind, source and lines in the header', async () => {
		const attachments = [
			record({ kind: 'diagnostics', source: 'src/a.ts' }),
			record({ kind: 'file', source: 'src/a.ts', lines: { start: 3, end: 9 } }),
			record({ kind: 'diff', source: 'working-tree', truncated: true }),
		];
		const state = reduceRunEvents(initialRunState(), [runStart('r1', attachments)]);
		expect(state.attachments).toEqual(attachments);
		await ui.panel.send({ type: 'snapshot', state, runs: [] });
		const items = ui.panel.page.locator('.run-header .run-attachments .attachment');
		await items.first().waitFor({ timeout: 5_000 });
		expect(await items.allTextContents()).toEqual([
			'problems in src/a.ts',
			'src/a.ts lines 3–9',
			'working-tree diff (truncated)',
		]);
		expect(await items.evaluateAll((els) => els.map((el) => el.getAttribute('data-kind')))).toEqual([
			'diagnostics',
			'file',
			'diff',
		]);
	});

	it('shows no attachment row for a run without attachments, also after one with them', async () => {
		const page = ui.panel.page;
		const withFile = [record({ kind: 'file', source: 'b.ts', lines: { start: 4, end: 4 } })];
		await ui.panel.send({ type: 'snapshot', state: null, runs: [] });
		await ui.panel.send({ type: 'events', events: [runStart('r1', withFile)] });
		await page.locator('.run-attachments .attachment').waitFor({ timeout: 5_000 });
		expect(await page.locator('.run-attachments').textContent()).toBe('b.ts line 4');
		// A new run replaces the state: its header has nothing attached.
		await ui.panel.send({ type: 'events', events: [runStart('r2')] });
		await page.locator('.run-attachments').waitFor({ state: 'hidden', timeout: 5_000 });
		expect(reduceRunEvents(initialRunState(), [runStart('r2')]).attachments).toBeUndefined();
	});

	it('shows the no-images notice of each agent under the attachments, until a new run', async () => {
		const page = ui.panel.page;
		const message = 'a (scripted/m) cannot take images: it gets the text attachments only';
		const image = [record({ kind: 'image', source: 'shot.png', mediaType: 'image/png' })];
		await ui.panel.send({ type: 'snapshot', state: null, runs: [] });
		await ui.panel.send({
			type: 'events',
			events: [runStart('r1', image), { runId: 'r1', seq: 1, t: 1, type: 'notice', agentId: 'a', message }],
		});
		const notices = page.locator('.run-header .run-notices .run-notice');
		await notices.first().waitFor({ timeout: 5_000 });
		expect(await notices.allTextContents()).toEqual([message]);
		await ui.panel.send({ type: 'events', events: [runStart('r2')] });
		await page.locator('.run-notices').waitFor({ state: 'hidden', timeout: 5_000 });
	});

	it('lists the project instruction files the agents got, a cut one marked, none for a run without', async () => {
		const page = ui.panel.page;
		const instructions = [
			{ path: 'AGENTS.md', bytes: 40, sha256: '1'.repeat(64) },
			{
				path: '.github/instructions/ts.instructions.md',
				bytes: 32768,
				sha256: '2'.repeat(64),
				truncated: true,
			},
		];
		const start = { ...runStart('r1'), instructions } as RunEvent;
		expect(reduceRunEvents(initialRunState(), [start]).instructions).toEqual(instructions);
		await ui.panel.send({ type: 'snapshot', state: null, runs: [] });
		await ui.panel.send({ type: 'events', events: [start] });
		const items = page.locator('.run-header .run-instructions .instruction');
		await items.first().waitFor({ timeout: 5_000 });
		expect(await items.allTextContents()).toEqual([
			'AGENTS.md',
			'.github/instructions/ts.instructions.md (cut to the size caps)',
		]);
		expect(await page.locator('.run-instructions').getAttribute('aria-label')).toBe('Project instructions');
		await ui.panel.send({ type: 'events', events: [runStart('r2')] });
		await page.locator('.run-instructions').waitFor({ state: 'hidden', timeout: 5_000 });
	});
});
