/**
 * Lanes in a side bar (VS Code's default secondary side bar is 290 px): while agents can be
 * stopped, the Stop button keeps its icon and drops its word, so each agent's name is shown whole;
 * in a wide panel the word is back.
 */
import { describe, expect, it } from 'vitest';
import type { RunEvent, RunEventBody } from '../../../src/contract/runEvents.js';
import { usePanelPerTest } from './panelSession.js';

const ui = usePanelPerTest({ viewport: { width: 290, height: 720 } });

const names = ['architect', 'reviewer', 'tester'];
const bodies: RunEventBody[] = [
	{
		type: 'run-start',
		question: 'Validate the input of hello',
		workspace: '/tmp/ws',
		agents: names.map((agentId, i) => ({ agentId, anonId: `agent${i + 1}`, provider: 'openai', model: 'm' })),
	},
	...names.map((agentId): RunEventBody => ({ type: 'round-start', agentId, round: 1, snapshot: [] })),
];
const events = bodies.map((body, seq) => ({ runId: 'r1', seq, t: seq * 10, ...body }) as RunEvent);

describe('lanes in a narrow side bar', () => {
	it("show each agent's whole name beside an icon-only Stop; a wide panel shows Stop's word", async () => {
		const page = ui.panel.page;
		await ui.panel.send({ type: 'snapshot', state: null, runs: [] });
		await ui.panel.send({ type: 'events', events });
		const stops = page.locator('.stop-agent');
		await stops.nth(2).waitFor({ state: 'visible', timeout: 5_000 });
		for (const name of names) {
			const lane = page.locator(`.lane[data-agent="${name}"]`);
			const title = lane.locator('.lane-id');
			expect(await title.textContent()).toBe(name);
			// Not cut: the name's box holds all of its text.
			expect(await title.evaluate((el) => el.scrollWidth <= el.clientWidth), name).toBe(true);
			expect(await lane.locator('.stop-agent-label').isVisible(), name).toBe(false);
			expect(await lane.getByRole('button', { name: `Stop ${name}` }).isVisible(), name).toBe(true);
		}
		await page.setViewportSize({ width: 1280, height: 720 });
		await page.locator('.stop-agent-label').first().waitFor({ state: 'visible', timeout: 5_000 });
		expect(await page.locator('.stop-agent-label:visible').count()).toBe(3);
		// Three 300 px lanes side by side: the names are still whole beside the word.
		for (const name of names) {
			const title = page.locator(`.lane[data-agent="${name}"] .lane-id`);
			expect(await title.evaluate((el) => el.scrollWidth <= el.clientWidth), name).toBe(true);
		}
	});
});
