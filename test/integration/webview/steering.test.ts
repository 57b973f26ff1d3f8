/**
 * Steering a running team in the real panel bundle: the message box (to every agent or one lane,
 * "note only"), a lane's Message button, the user's messages in the lanes (waiting, then read),
 * Finish now in the header and its refusal, why coordination ended with what a quorum saved, and
 * the usage by agent against the run budget, kept current as usage arrives. Every posted message
 * passes the host's schema (`pageProblems`).
 */
import { describe, expect, it } from 'vitest';
import type { RunEvent, RunEventBody } from '../../../src/contract/runEvents.js';
import { usePanelPerTest } from './panelSession.js';

const ui = usePanelPerTest();
const runId = '20261203-080000-s1s1';

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
		maxCostUsd: { limit: 0.5, source: 'massgen.maxCostUsd' },
		maxTokens: null,
		spentUsd: 0,
		spentTokens: 0,
	},
};

const posted = async (type: string) =>
	((await ui.panel.posted()) as { type: string }[]).filter((message) => message.type === type);

async function running(): Promise<void> {
	await ui.panel.send({ type: 'snapshot', state: null, runs: [] });
	await ui.panel.send({
		type: 'events',
		events: events([start, { type: 'round-start', agentId: 'a', round: 1, snapshot: [] }]),
	});
	await ui.panel.page.locator('.steer-box').waitFor({ state: 'visible', timeout: 5_000 });
}

const typeMessage = async (text: string) => {
	await ui.panel.page.locator('.steer-input textarea').fill(text);
};

describe('the message box while a run goes', () => {
	it('sends to every agent with Enter; the box empties once the host accepts it', async () => {
		await running();
		const page = ui.panel.page;
		expect(await page.getByRole('combobox', { name: 'To' }).inputValue()).toBe('');
		await typeMessage('Use SQLite, not Postgres.');
		await page.locator('.steer-input textarea').press('Enter');
		await page.waitForFunction(`window.__posted.some((m) => m.type === 'steer')`);
		expect(await posted('steer')).toEqual([
			{ type: 'steer', runId, text: 'Use SQLite, not Postgres.', noteOnly: false },
		]);
		// Sent once: a second Enter before the host answers sends nothing more.
		await page.locator('.steer-input textarea').press('Enter');
		await ui.panel.send({ type: 'control-result', runId, action: 'steer', ok: true });
		await page.getByText('Sent: each agent reads it at its next model call.').waitFor({ timeout: 5_000 });
		expect(await posted('steer')).toHaveLength(1);
		expect(await page.locator('.steer-input textarea').inputValue()).toBe('');
	});

	it("a lane's Message button targets that agent; note only goes with it; a refusal keeps the text and says why", async () => {
		await running();
		const page = ui.panel.page;
		await page.locator('.lane[data-agent="b"]').getByRole('button', { name: 'Message b' }).click();
		expect(await page.getByRole('combobox', { name: 'To' }).inputValue()).toBe('b');
		// The box has the keyboard: typing goes straight into it.
		await page.keyboard.type('Keep it short');
		await page.getByRole('checkbox', { name: 'Note only (keep votes)' }).check();
		await page.getByRole('button', { name: 'Send the message to the team' }).click();
		await page.waitForFunction(`window.__posted.some((m) => m.type === 'steer')`);
		expect(await posted('steer')).toEqual([
			{ type: 'steer', runId, text: 'Keep it short', agentId: 'b', noteOnly: true },
		]);
		await ui.panel.send({
			type: 'control-result',
			runId,
			action: 'steer',
			ok: false,
			reason: 'b is out of the run.',
		});
		await page.getByText('Not sent: b is out of the run.').waitFor({ timeout: 5_000 });
		expect(await page.locator('.steer-input textarea').inputValue()).toBe('Keep it short');
	});

	it('lists the user’s messages in the lanes they reach, waiting then read; stopped agents cannot be picked', async () => {
		await running();
		const page = ui.panel.page;
		await ui.panel.send({
			type: 'events',
			events: events(
				[
					{ type: 'steer', id: 1, text: 'Prefer SQLite', agents: ['a', 'b'], noteOnly: false },
					{
						type: 'steer',
						id: 2,
						text: 'Only b: be brief',
						agents: ['b'],
						targetAgentId: 'b',
						noteOnly: true,
					},
					{ type: 'steer-delivered', id: 1, agentId: 'a', phase: 'coordination' },
				],
				2,
			),
		});
		const laneA = page.locator('.lane[data-agent="a"] .lane-user-message');
		const laneB = page.locator('.lane[data-agent="b"] .lane-user-message');
		await laneB.nth(1).waitFor({ timeout: 5_000 });
		expect(await laneA.count()).toBe(1);
		expect(await laneA.first().getAttribute('data-delivered')).toBe('true');
		expect(await laneA.first().textContent()).toBe('YouPrefer SQLiteread');
		expect(await laneB.allTextContents()).toEqual([
			'YouPrefer SQLitewaiting for its next call',
			'YouOnly b: be briefwaiting for its next call',
		]);
		expect(await laneB.nth(1).locator('.user-message-state').getAttribute('title')).toBe(
			'to this agent only · note only',
		);
		await ui.panel.send({
			type: 'events',
			events: events(
				[
					{ type: 'steer-delivered', id: 2, agentId: 'b', phase: 'coordination' },
					{ type: 'agent-stopped', agentId: 'b', reason: 'user' },
				],
				5,
			),
		});
		await page.locator('.lane[data-agent="b"] .lane-user-message[data-delivered="true"]').waitFor();
		expect(await page.locator('.steer-target option[value="b"]').isDisabled()).toBe(true);
		expect(await page.locator('.lane[data-agent="b"] .message-agent').isHidden()).toBe(true);
	});

	it('goes when the run ends', async () => {
		await running();
		await ui.panel.send({
			type: 'events',
			events: events([{ type: 'run-end', status: 'cancelled', durationMs: 30 }], 2),
		});
		await ui.panel.page.locator('.steer-box').waitFor({ state: 'hidden', timeout: 5_000 });
	});
});

describe('Finish now and why coordination ended', () => {
	it('posts finish-now for the run; a refusal re-enables it with the reason', async () => {
		await running();
		const page = ui.panel.page;
		const finish = page.getByRole('button', { name: 'Finish now: the agent with the most votes presents' });
		await finish.click();
		await page.waitForFunction(`window.__posted.some((m) => m.type === 'finish-now')`);
		expect(await posted('finish-now')).toEqual([{ type: 'finish-now', runId }]);
		const disabled = () => finish.evaluate((element) => element.hasAttribute('disabled'));
		expect(await disabled()).toBe(true);
		await ui.panel.send({
			type: 'control-result',
			runId,
			action: 'finish-now',
			ok: false,
			reason: 'The run is not going.',
		});
		await page.getByText('Finish now refused: The run is not going.').waitFor({ timeout: 5_000 });
		expect(await disabled()).toBe(false);
	});

	it('says why coordination ended and what the quorum saved; Finish now goes', async () => {
		await running();
		const page = ui.panel.page;
		await ui.panel.send({
			type: 'events',
			events: events(
				[
					{ type: 'new-answer', agentId: 'a', label: 'agent1.1', content: 'plan' },
					{
						type: 'coordination-end',
						ended: 'quorum',
						quorum: { required: 2, votes: 2, label: 'agent1.1' },
						saved: { callsStopped: 1, agentsNotWaitedFor: ['b'], estimatedCostUsd: 0.02 },
					},
				],
				2,
			),
		});
		const ended = page.locator('.coordination-end');
		await ended.waitFor({ timeout: 5_000 });
		expect(await ended.textContent()).toBe(
			'Coordination ended: 2 of the 2 votes needed backed agent1.1 (quorum). Saved: 1 call stopped · not waited for b · about $0.02 not spent',
		);
		expect(await ended.getAttribute('data-reason')).toBe('quorum');
		expect(await page.locator('.finish-now').isHidden()).toBe(true);
	});
});

describe('usage by agent in the header', () => {
	it('shows each agent’s input, output, cached tokens and cost, and the total against the budget, live', async () => {
		await running();
		const page = ui.panel.page;
		await page.locator('.usage-by-agent summary').click();
		const usage = (agentId: string, input: number, output: number, cached: number, costUsd: number | null) =>
			({
				type: 'usage',
				agentId,
				usage: { inputTokens: input, outputTokens: output, cachedInputTokens: cached },
				costUsd,
			}) as RunEventBody;
		await ui.panel.send({ type: 'events', events: events([usage('a', 12_000, 800, 4_000, 0.03)], 2) });
		const rows = page.locator('.usage-table tr');
		await page.getByText('Budget: $0.03 of $0.50').waitFor({ timeout: 5_000 });
		const cells = async () =>
			rows.evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
		expect(await cells()).toEqual([
			['Agent', 'Input', 'Output', 'Cached', 'Cost'],
			['a', '12k', '800', '4.0k', '$0.03'],
			['b', '0', '0', '0', '$0'],
			['Total', '12k', '800', '4.0k', '$0.03'],
		]);
		// The next call's usage moves the row and the total while the run goes; an unpriced call makes the cost a floor.
		await ui.panel.send({ type: 'events', events: events([usage('b', 2_000, 100, 0, null)], 3) });
		await page.getByText('Budget: ≥ $0.03 of $0.50').waitFor({ timeout: 5_000 });
		expect(await cells()).toEqual([
			['Agent', 'Input', 'Output', 'Cached', 'Cost'],
			['a', '12k', '800', '4.0k', '$0.03'],
			['b', '2.0k', '100', '0', 'no price'],
			['Total', '14k', '900', '4.0k', '≥ $0.03'],
		]);
		expect(await rows.nth(1).locator('td').first().getAttribute('title')).toBe('12,000');
	});
});
