import { describe, expect, it } from 'vitest';
import type { RunEvent, RunEventBody } from '../../../src/contract/runEvents';
import { reduceRunEvents } from '../../../src/protocol/reduceRun';
import { initialRunState } from '../../../src/protocol/runState';
import { formatElapsed, formatRunStatus } from '../../../src/vscode/run/formatRunStatus';

function stamp(bodies: RunEventBody[]): RunEvent[] {
	return bodies.map((body, seq) => ({ runId: 'r1', seq, t: seq * 10, ...body }) as RunEvent);
}

const start: RunEventBody = {
	type: 'run-start',
	question: 'q',
	workspace: '/ws',
	agents: [
		{ agentId: 'a', anonId: 'agent1', provider: 'scripted', model: 'm' },
		{ agentId: 'b', anonId: 'agent2', provider: 'scripted', model: 'm' },
		{ agentId: 'c', anonId: 'agent3', provider: 'scripted', model: 'm' },
	],
};

describe('formatRunStatus', () => {
	it('formats elapsed time', () => {
		expect(formatElapsed(0)).toBe('0:00');
		expect(formatElapsed(61_999)).toBe('1:01');
		expect(formatElapsed(3_600_000 + 5_000)).toBe('1:00:05');
	});

	it('shows "starting" before the first event', () => {
		expect(formatRunStatus(null, 2000)).toBe('$(loading~spin) MassGen: starting · 0:02');
	});

	it('shows agents, round, answers and votes during coordination', () => {
		const state = reduceRunEvents(
			initialRunState(),
			stamp([
				start,
				{ type: 'round-start', agentId: 'a', round: 1, snapshot: [] },
				{ type: 'new-answer', agentId: 'a', label: 'agent1.1', content: 'x' },
				{ type: 'round-start', agentId: 'b', round: 2, snapshot: ['agent1.1'] },
				{ type: 'vote', agentId: 'b', voter: 'b', votedFor: 'agent1.1', votedForAgent: 'a', reason: 'ok' },
				{ type: 'agent-killed', agentId: 'c', reason: 'auth' },
			]),
		);
		expect(formatRunStatus(state, 14_000)).toBe(
			'$(loading~spin) MassGen: 2/3 agents · round 2 · 1 answer · 1 vote · 0:14',
		);
	});

	it('shows the presenter during the presentation', () => {
		const state = reduceRunEvents(
			initialRunState(),
			stamp([
				start,
				{ type: 'new-answer', agentId: 'a', label: 'agent1.1', content: 'x' },
				{ type: 'presentation-start', agentId: 'a' },
			]),
		);
		expect(formatRunStatus(state, 1000)).toBe('$(loading~spin) MassGen: 3 agents · a presenting · 0:01');
	});
});
