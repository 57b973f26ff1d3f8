/**
 * The live view of a whole team: compact lanes while the run goes on (name, state, the running tool
 * call or the last line of output; the rest on a click), the vote strip pinned in the header, and
 * at a laptop's size every lane and the votes in sight at once. Chromium under the real CSP.
 */
import { describe, expect, it } from 'vitest';
import type { RunEvent, RunEventBody } from '../../../src/contract/runEvents.js';
import { usePanelPerTest } from './panelSession.js';

const runId = '20260301-090000-team';
const team = ['architect', 'reviewer', 'tester'];

function liveRun(): RunEvent[] {
	let seq = 0;
	const event = (body: RunEventBody): RunEvent => ({ runId, seq, t: seq++ * 40, ...body }) as RunEvent;
	const lines = (agentId: string, count: number) =>
		Array.from({ length: count }, (_, i) =>
			event({
				type: 'text-delta',
				agentId,
				phase: 'coordination',
				text: `${agentId} thinks, step ${i + 1}\n`,
			}),
		);
	return [
		event({
			type: 'run-start',
			question: 'Validate the input of parseAge and document it',
			workspace: '/tmp/ws',
			agents: team.map((agentId, i) => ({
				agentId,
				anonId: `agent${i + 1}`,
				provider: 'chatcompletion',
				model: `fake-${agentId}`,
			})),
		}),
		...team.map((agentId) => event({ type: 'round-start', agentId, round: 1, snapshot: [] })),
		...lines('architect', 40),
		...lines('reviewer', 30),
		...lines('tester', 25),
		event({
			type: 'new-answer',
			agentId: 'architect',
			label: 'agent1.1',
			content: 'Throw a RangeError for negative ages.',
		}),
		event({
			type: 'tool-call',
			agentId: 'reviewer',
			phase: 'coordination',
			callId: 'call_1',
			name: 'read_file',
			args: { path: 'src/age.ts' },
		}),
		event({
			type: 'vote',
			agentId: 'tester',
			voter: 'tester',
			votedFor: 'agent1.1',
			votedForAgent: 'architect',
			reason: 'covers the negative case',
		}),
	];
}

type Box = { top: number; bottom: number; left: number; right: number };
const box = (selector: string) =>
	`[...document.querySelectorAll(${JSON.stringify(selector)})].map((el) => { const r = el.getBoundingClientRect(); return { top: r.top, bottom: r.bottom, left: r.left, right: r.right }; })`;

describe('the live view of a three-agent team', () => {
	for (const viewport of [
		{ width: 1000, height: 620, name: 'editor tab at 1280×720' },
		{ width: 420, height: 620, name: 'side bar at 1280×720' },
	]) {
		describe(viewport.name, () => {
			const ui = usePanelPerTest({
				viewport: { width: viewport.width, height: viewport.height },
				afterOpen: async (p) => {
					await p.send({ type: 'snapshot', state: null, runs: [] });
				},
			});

			it('every lane is compact and in sight with the vote strip; a name expands and collapses its lane', async () => {
				const page = ui.panel.page;
				await ui.panel.send({ type: 'events', events: liveRun() });
				await ui.panel.frames(2);

				const lanes = page.locator('section.lane');
				expect(await lanes.count()).toBe(3);
				expect(
					await lanes.evaluateAll((all) => all.every((lane) => lane.classList.contains('is-compact'))),
				).toBe(true);
				// Compact: the running tool call, else the last line of output.
				const reviewer = page.locator('section.lane[data-agent="reviewer"]');
				await expect(reviewer.locator('.lane-peek-tool').textContent()).resolves.toBe('read_file src/age.ts');
				await expect(
					page.locator('section.lane[data-agent="architect"] .lane-peek-line').textContent(),
				).resolves.toBe('architect thinks, step 40');
				expect(await reviewer.locator('.lane-stream').isVisible()).toBe(false);
				await expect(reviewer.locator('.lane-toggle').getAttribute('aria-expanded')).resolves.toBe('false');

				// The vote strip: who voted for whom, pinned in the header.
				await expect(page.locator('.run-header .vote-strip .vote-chip').allTextContents()).resolves.toEqual([
					'architect: no vote yet',
					'reviewer: no vote yet',
					'tester → architect',
				]);
				await expect(page.locator('.vote-chip[data-agent="tester"]').getAttribute('title')).resolves.toBe(
					'tester → architect (agent1.1): covers the negative case',
				);

				// At this size every lane and the strip are inside the viewport, above the ask box.
				const askTop = ((await page.evaluate(box('.ask-box'))) as Box[])[0]!.top;
				const laneBoxes = (await page.evaluate(box('section.lane'))) as Box[];
				const strip = ((await page.evaluate(box('.vote-strip'))) as Box[])[0]!;
				for (const one of [...laneBoxes, strip]) {
					expect(one.top).toBeGreaterThanOrEqual(0);
					expect(one.bottom).toBeLessThanOrEqual(Math.min(askTop, viewport.height));
					expect(one.right).toBeLessThanOrEqual(viewport.width);
				}
				await ui.panel.screenshot(`live-team-${viewport.width}x${viewport.height}`, false);

				// A click on the name shows the whole lane, the output growing with its text.
				await reviewer.locator('.lane-toggle').click();
				await expect(reviewer.locator('.lane-toggle').getAttribute('aria-expanded')).resolves.toBe('true');
				expect(await reviewer.locator('.lane-stream').isVisible()).toBe(true);
				expect(await reviewer.locator('.lane-peek').isVisible()).toBe(false);
				const tester = page.locator('section.lane[data-agent="tester"]');
				await tester.locator('.lane-toggle').click();
				const height = (selector: string) =>
					page.evaluate(
						`document.querySelector(${JSON.stringify(selector)}).getBoundingClientRect().height`,
					) as Promise<number>;
				// Short output: a box as tall as its text, not a fixed one.
				await ui.panel.send({
					type: 'events',
					events: [
						{
							runId,
							seq: 500,
							t: 20_000,
							type: 'round-start',
							agentId: 'tester',
							round: 2,
							snapshot: ['agent1.1'],
						},
						{
							runId,
							seq: 501,
							t: 20_001,
							type: 'text-delta',
							agentId: 'tester',
							phase: 'coordination',
							text: 'one line',
						},
					] as RunEvent[],
				});
				await ui.panel.frames(2);
				const short = await height('section.lane[data-agent="tester"] .lane-stream');
				const long = await height('section.lane[data-agent="reviewer"] .lane-stream');
				expect(short).toBeLessThan(long / 3);
				// Collapsing again is remembered: the next event does not reopen it.
				await reviewer.locator('.lane-toggle').click();
				await ui.panel.send({
					type: 'events',
					events: [
						{
							runId,
							seq: 502,
							t: 20_002,
							type: 'text-delta',
							agentId: 'reviewer',
							phase: 'coordination',
							text: 'more\n',
						},
					] as RunEvent[],
				});
				await ui.panel.frames(2);
				await expect(reviewer.getAttribute('class')).resolves.toContain('is-compact');
			});
		});
	}
});
