/**
 * The run budget and Stop agent in the panel: the header shows spent / cap while the run goes and
 * why the budget stopped it; each lane in coordination has a Stop button that posts `stop-agent`
 * for its agent, and the lane shows "stopped" once the host's `agent-stopped` event arrives.
 */
import { describe, expect, it } from 'vitest';
import type { RunEvent, RunEventBody } from '../../../src/contract/runEvents.js';
import { parseWebviewMessage } from '../../../src/protocol/webviewMessageSchema.js';
import { usePanelPerTest } from './panelSession.js';

const ui = usePanelPerTest();
/** A run id as the host's schema takes it (the page posts it with Stop). */
const runId = '20261203-060000-r1r1';

function events(bodies: RunEventBody[], from = 0): RunEvent[] {
	return bodies.map((body, i) => ({ runId, seq: from + i, t: (from + i) * 10, ...body }) as RunEvent);
}

const start: RunEventBody = {
	type: 'run-start',
	question: 'Plan the release',
	workspace: '/tmp/ws',
	agents: [
		{ agentId: 'a', anonId: 'agent1', provider: 'openai', model: 'gpt-5-mini' },
		{ agentId: 'b', anonId: 'agent2', provider: 'claude', model: 'claude-haiku-4-5' },
	],
	budget: {
		maxCostUsd: { limit: 0.05, source: 'massgen.maxCostUsd' },
		maxTokens: { limit: 200_000, source: 'massgen.maxTokens' },
		spentUsd: 0,
		spentTokens: 0,
	},
};

const usage = (agentId: string, costUsd: number): RunEventBody => ({
	type: 'usage',
	agentId,
	usage: { inputTokens: 100_000, outputTokens: 10_000 },
	costUsd,
});

describe('run budget in the panel header', () => {
	it('shows spent / cap while the run goes, then why the budget stopped it', async () => {
		const header = ui.panel.page.locator('.run-header');
		await ui.panel.send({ type: 'snapshot', state: null, runs: [] });
		await ui.panel.send({ type: 'events', events: events([start, usage('a', 0.03)]) });
		await header.locator('.cost[data-budget="0.05"]').waitFor({ timeout: 5_000 });
		expect(await header.locator('.cost').textContent()).toBe('$0.03 / $0.05');
		expect(await header.getByText('110k / 200k tokens').count()).toBe(1);

		const reason = 'cost budget reached: $0.0600 of $0.0500 (massgen.maxCostUsd)';
		const reached = events(
			[
				usage('b', 0.03),
				{ type: 'budget-reached', kind: 'cost', limit: 0.05, spent: 0.06, reason },
				{ type: 'run-end', status: 'completed', durationMs: 40 },
			],
			2,
		);
		await ui.panel.send({ type: 'events', events: reached });
		await header.getByText(`Stopped: ${reason}`).waitFor({ timeout: 5_000 });
		expect(await header.locator('.cost').textContent()).toBe('$0.06 / $0.05');
	});

	it('shows the plain totals for a run without a cap', async () => {
		const { budget: _none, ...uncapped } = start as Extract<RunEventBody, { type: 'run-start' }>;
		await ui.panel.send({ type: 'snapshot', state: null, runs: [] });
		await ui.panel.send({ type: 'events', events: events([uncapped, usage('a', 0.03)]) });
		const cost = ui.panel.page.locator('.run-header .cost');
		await ui.panel.page.getByText('110k tokens').waitFor({ timeout: 5_000 });
		expect(await cost.textContent()).toBe('$0.03');
		expect(await cost.getAttribute('data-budget')).toBe('');
	});
});

describe('Stop agent in a lane', () => {
	it('posts a valid stop-agent for its agent; the lane then shows stopped and the button goes', async () => {
		await ui.panel.send({ type: 'snapshot', state: null, runs: [] });
		await ui.panel.send({
			type: 'events',
			events: events([start, { type: 'round-start', agentId: 'b', round: 1, snapshot: [] }]),
		});
		const lane = ui.panel.page.locator('.lane[data-agent="b"]');
		const stop = lane.locator('.stop-agent');
		await stop.waitFor({ state: 'visible', timeout: 5_000 });
		await stop.click();
		const posted = (await ui.panel.posted()).filter((m) => (m as { type: string }).type === 'stop-agent');
		expect(posted).toEqual([{ type: 'stop-agent', runId, agentId: 'b' }]);
		// What the host accepts (the same schema validates it there).
		expect(parseWebviewMessage(posted[0])).toEqual({ ok: true, message: posted[0] });

		await ui.panel.send({
			type: 'events',
			events: events([{ type: 'agent-stopped', agentId: 'b', reason: 'user' }], 2),
		});
		await lane.locator('.state-badge[data-state="stopped"]').waitFor({ timeout: 5_000 });
		expect(await lane.locator('.state-badge').textContent()).toContain('stopped');
		expect(await lane.getByText('Stopped by you: its answers stay').count()).toBe(1);
		expect(await stop.isHidden()).toBe(true);
		// The other lane can still be stopped while coordination goes on.
		expect(await ui.panel.page.locator('.lane[data-agent="a"] .stop-agent').isVisible()).toBe(true);
	});

	it('offers no Stop once a winner is chosen', async () => {
		await ui.panel.send({ type: 'snapshot', state: null, runs: [] });
		await ui.panel.send({
			type: 'events',
			events: events([
				start,
				{ type: 'new-answer', agentId: 'a', label: 'agent1.1', content: 'plan A' },
				{ type: 'winner-selected', agentId: 'a', label: 'agent1.1', tally: {}, reason: 'no-votes' },
			]),
		});
		await ui.panel.page.locator('.lane[data-agent="a"]').waitFor({ timeout: 5_000 });
		expect(await ui.panel.page.locator('.stop-agent:visible').count()).toBe(0);
	});
});
