/**
 * The evaluation checklist in the panel (real bundle, real CSP, Chromium): the Votes section shows
 * a table with one row per criterion in force and one column per scored answer, each cell the
 * current voters' scores, a score under the threshold marked; a criterion an agent proposed says
 * who in its tooltip; in German from the host's table. A run without a checklist shows no table.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunEvent, RunEventBody } from '../../../src/contract/runEvents.js';
import { webviewStrings, type TextSource } from '../../../src/vscode/panel/panelStrings.js';
import { repoRoot } from './harness.js';
import { usePanelPerTest } from './panelSession.js';

const ui = usePanelPerTest();

function events(bodies: RunEventBody[]): RunEvent[] {
	return bodies.map((body, seq) => ({ runId: 'r1', seq, t: seq * 10, ...body }) as RunEvent);
}

const start: RunEventBody = {
	type: 'run-start',
	question: 'Fix the parser',
	workspace: '/tmp/ws',
	agents: [
		{ agentId: 'alice', anonId: 'agent1', provider: 'scripted', model: 'm' },
		{ agentId: 'bob', anonId: 'agent2', provider: 'scripted', model: 'm' },
	],
};
const scores = (a: [number, number, number], b: [number, number, number]) => [
	{ label: 'agent1.1', criteria: a.map((score, i) => ({ id: `C${i + 1}`, score })) },
	{ label: 'agent2.1', criteria: b.map((score, i) => ({ id: `C${i + 1}`, score })) },
];
const run = events([
	start,
	{
		type: 'checklist',
		criteria: [
			{ id: 'C1', text: 'Handles empty input', category: 'primary', round: 0 },
			{ id: 'C2', text: 'Has a test', category: 'standard', round: 0 },
		],
		threshold: 7,
	},
	{ type: 'new-answer', agentId: 'alice', label: 'agent1.1', content: 'A' },
	{ type: 'new-answer', agentId: 'bob', label: 'agent2.1', content: 'B' },
	{
		type: 'checklist',
		criteria: [
			{ id: 'C1', text: 'Handles empty input', category: 'primary', round: 0 },
			{ id: 'C2', text: 'Has a test', category: 'standard', round: 0 },
			{ id: 'C3', text: 'Explains the null case', category: 'standard', round: 1, proposedBy: 'bob' },
		],
		threshold: 7,
	},
	{
		type: 'vote',
		agentId: 'alice',
		voter: 'alice',
		votedFor: 'agent2.1',
		votedForAgent: 'bob',
		reason: 'tested',
		scores: scores([8, 5, 7], [9, 8, 7]),
	},
	{
		type: 'vote',
		agentId: 'bob',
		voter: 'bob',
		votedFor: 'agent2.1',
		votedForAgent: 'bob',
		reason: 'mine has the test',
		scores: scores([9, 4, 8], [8, 9, 9]),
	},
]);

describe('checklist scores in the panel', () => {
	it('a row per criterion, a column per answer, the voters’ scores per cell, under-threshold cells marked', async () => {
		const { page } = ui.panel;
		await ui.panel.send({ type: 'snapshot', state: null, runs: [] });
		await ui.panel.send({ type: 'events', events: run });
		const table = page.locator('.checklist-scores table');
		await table.waitFor({ timeout: 5_000 });
		expect(await page.locator('.checklist-scores h3').textContent()).toBe('Checklist scores');
		expect(await page.locator('.checklist-note').textContent()).toBe(
			'Scores 1–10 from the current votes; a vote needs at least 7 on every criterion.',
		);
		expect(await table.locator('thead th').allTextContents()).toEqual(['Criterion', 'alice', 'bob']);
		const rows = await table
			.locator('tbody tr')
			.evaluateAll((trs) => trs.map((tr) => [...tr.children].map((cell) => cell.textContent)));
		expect(rows).toEqual([
			['C1 Handles empty input', '8 · 9', '9 · 8'],
			['C2 Has a test', '5 · 4', '8 · 9'],
			['C3 Explains the null case', '7 · 8', '7 · 9'],
		]);
		expect(await table.locator('td.is-below').allTextContents()).toEqual(['5 · 4']);
		expect(await table.locator('tbody th').nth(2).getAttribute('title')).toBe(
			'Explains the null case\nproposed by bob in round 1',
		);
		expect(await table.locator('td').first().getAttribute('title')).toBe('alice scored 8\nbob scored 9');
	});

	it('in German from the host’s table', async () => {
		const german = JSON.parse(readFileSync(join(repoRoot, 'l10n', 'bundle.l10n.de.json'), 'utf8')) as Record<
			string,
			string
		>;
		const texts = { l10n: { t: ((m: string) => german[m] ?? `MISSING ${m}`) as TextSource['l10n']['t'] } };
		const { page } = ui.panel;
		await ui.panel.send({ type: 'snapshot', state: null, runs: [], strings: webviewStrings(texts) });
		await ui.panel.send({ type: 'events', events: run });
		await page.locator('.checklist-scores table').waitFor({ timeout: 5_000 });
		expect(await page.locator('.checklist-scores h3').textContent()).toBe('Checklisten-Bewertungen');
		expect(await page.locator('.checklist-scores thead th').first().textContent()).toBe('Kriterium');
		expect(await page.locator('.checklist-scores tbody th').nth(2).getAttribute('title')).toBe(
			'Explains the null case\nvorgeschlagen von bob in Runde 1',
		);
		expect(await page.locator('body').textContent()).not.toContain('MISSING');
	});

	it('a run without a checklist shows no table', async () => {
		const { page } = ui.panel;
		await ui.panel.send({ type: 'snapshot', state: null, runs: [] });
		await ui.panel.send({
			type: 'events',
			events: events([
				start,
				{ type: 'new-answer', agentId: 'alice', label: 'agent1.1', content: 'A' },
				{
					type: 'vote',
					agentId: 'bob',
					voter: 'bob',
					votedFor: 'agent1.1',
					votedForAgent: 'alice',
					reason: 'ok',
				},
			]),
		});
		await page.locator('.reasons li').first().waitFor({ timeout: 5_000 });
		expect(await page.locator('.checklist-scores').count()).toBe(0);
	});
});
