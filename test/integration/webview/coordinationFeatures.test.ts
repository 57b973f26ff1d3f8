/**
 * MassGen's coordination features in the panel. Post-evaluation: while the winner checks its
 * answer the header says so; an attempt it sends back is listed with its reason and what the team
 * was told, and the last attempt's votes no longer count. Planning mode: a held tool call shows as
 * planned, not as run.
 */
import { describe, expect, it } from 'vitest';
import type { RunEvent, RunEventBody } from '../../../src/contract/runEvents.js';
import { reduceRunEvents } from '../../../src/protocol/reduceRun.js';
import { initialRunState } from '../../../src/protocol/runState.js';
import { usePanelPerTest } from './panelSession.js';

const ui = usePanelPerTest();

function events(bodies: RunEventBody[]): RunEvent[] {
	return bodies.map((body, seq) => ({ runId: 'r1', seq, t: seq * 10, ...body }) as RunEvent);
}

const start: RunEventBody = {
	type: 'run-start',
	question: 'Plan the release',
	workspace: '/tmp/ws',
	agents: [
		{ agentId: 'a', anonId: 'agent1', provider: 'scripted', model: 'm' },
		{ agentId: 'b', anonId: 'agent2', provider: 'scripted', model: 'm' },
	],
};

describe('post-evaluation in the panel', () => {
	it('says who checks the answer, then lists the restarted attempt with its reason', async () => {
		const notices = ui.panel.page.locator('.run-header .run-notices .run-notice');
		const first = events([
			start,
			{ type: 'new-answer', agentId: 'a', label: 'agent1.1', content: 'plan A' },
			{ type: 'vote', agentId: 'b', voter: 'b', votedFor: 'agent1.1', votedForAgent: 'a', reason: 'fine' },
			{ type: 'evaluation-start', agentId: 'a', attempt: 1 },
		]);
		await ui.panel.send({ type: 'snapshot', state: null, runs: [] });
		await ui.panel.send({ type: 'events', events: first });
		await notices.first().waitFor({ timeout: 5_000 });
		expect(await notices.allTextContents()).toEqual(['a is checking the final answer…']);

		const restart = events([
			start,
			{
				type: 'evaluation-end',
				agentId: 'a',
				attempt: 1,
				verdict: 'restart',
				reason: 'no tests',
				instructions: 'add tests',
			},
			{ type: 'attempt-start', attempt: 2, reason: 'no tests', instructions: 'add tests' },
		])
			.slice(1)
			.map((event, i) => ({ ...event, seq: first.length + i }));
		await ui.panel.send({ type: 'events', events: restart });
		await ui.panel.page
			.getByText('Attempt 1 was sent back: no tests (next: add tests)')
			.waitFor({ timeout: 5_000 });
		expect(await notices.allTextContents()).toEqual(['Attempt 1 was sent back: no tests (next: add tests)']);
		const state = reduceRunEvents(initialRunState(), [...first, ...restart]);
		expect(state.votes).toEqual({});
		expect(state.restarts).toEqual([{ attempt: 2, reason: 'no tests', instructions: 'add tests' }]);
	});

	it('shows a tool call held by planning mode as planned, not run', async () => {
		const held = events([
			start,
			{ type: 'round-start', agentId: 'a', round: 1, snapshot: [] },
			{
				type: 'tool-call',
				agentId: 'a',
				phase: 'coordination',
				callId: 'c1',
				name: 'mcp__gh__create_issue',
				args: { title: 'x' },
			},
			{
				type: 'tool-result',
				agentId: 'a',
				phase: 'coordination',
				callId: 'c1',
				name: 'mcp__gh__create_issue',
				isError: false,
				text: 'mcp__gh__create_issue was not run: planning mode.',
				planned: true,
			},
		]);
		await ui.panel.send({ type: 'snapshot', state: null, runs: [] });
		await ui.panel.send({ type: 'events', events: held });
		// The run goes on, so the lane is compact: its name shows the whole lane.
		await ui.panel.page.locator('section.lane[data-agent="a"] .lane-toggle').click();
		const call = ui.panel.page.locator('section.lane[data-agent="a"] .tool-call', {
			hasText: 'create_issue',
		});
		await call.getByText('planned, not run').waitFor({ timeout: 5_000 });
		expect(reduceRunEvents(initialRunState(), held).agents['a']?.toolCalls[0]?.result?.planned).toBe(true);
	});
});
