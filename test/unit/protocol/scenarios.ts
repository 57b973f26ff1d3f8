/**
 * Scripted event sequences shared by the reducer, log and display tests.
 */
import type { RunEvent, RunEventBody } from '../../../src/contract/runEvents.js';
import { RUN_ID, stamp } from './eventFixtures.js';

const agents = [
	{ agentId: 'alice', anonId: 'agent1', provider: 'openai', model: 'gpt-4o' },
	{ agentId: 'bob', anonId: 'agent2', provider: 'claude', model: 'claude-sonnet-4' },
	{ agentId: 'carol', anonId: 'agent3', provider: 'gemini', model: 'gemini-2.5-pro' },
];

/**
 * Three agents: alice and bob answer, bob votes for alice, alice answers again (invalidating
 * bob's vote), everyone votes for agent1.2, alice wins, presents with one file edit.
 */
export function convergenceBodies(): RunEventBody[] {
	return [
		{ type: 'run-start', question: 'How should parse() work?', workspace: '/ws', agents },
		{ type: 'round-start', agentId: 'alice', round: 1, snapshot: [] },
		{ type: 'round-start', agentId: 'bob', round: 1, snapshot: [] },
		{ type: 'round-start', agentId: 'carol', round: 1, snapshot: [] },
		{ type: 'text-delta', agentId: 'alice', phase: 'coordination', text: 'Draft ' },
		{ type: 'text-delta', agentId: 'alice', phase: 'coordination', text: 'one' },
		{ type: 'reasoning-delta', agentId: 'bob', phase: 'coordination', text: 'hmm' },
		{
			type: 'tool-call',
			agentId: 'bob',
			phase: 'coordination',
			callId: 'c1',
			name: 'read_file',
			args: { path: 'a.ts' },
		},
		{
			type: 'tool-result',
			agentId: 'bob',
			phase: 'coordination',
			callId: 'c1',
			name: 'read_file',
			isError: false,
			text: 'x',
		},
		{ type: 'new-answer', agentId: 'alice', label: 'agent1.1', content: 'A1' },
		{ type: 'usage', agentId: 'alice', usage: { inputTokens: 100, outputTokens: 20 }, costUsd: 0.01 },
		{ type: 'update-injected', agentId: 'carol', labels: ['agent1.1'] },
		{ type: 'round-start', agentId: 'bob', round: 2, snapshot: ['agent1.1'] },
		{
			type: 'vote',
			agentId: 'bob',
			voter: 'bob',
			votedFor: 'agent1.1',
			votedForAgent: 'alice',
			reason: 'good',
		},
		{ type: 'usage', agentId: 'bob', usage: { inputTokens: 50, outputTokens: 5 }, costUsd: null },
		{ type: 'round-start', agentId: 'alice', round: 2, snapshot: ['agent1.1'] },
		{ type: 'new-answer', agentId: 'alice', label: 'agent1.2', content: 'A2' },
		{ type: 'votes-invalidated', voters: ['bob'], byLabel: 'agent1.2' },
		{ type: 'round-start', agentId: 'bob', round: 3, snapshot: ['agent1.2'] },
		{
			type: 'vote',
			agentId: 'bob',
			voter: 'bob',
			votedFor: 'agent1.2',
			votedForAgent: 'alice',
			reason: 'better',
		},
		{
			type: 'vote',
			agentId: 'carol',
			voter: 'carol',
			votedFor: 'agent1.2',
			votedForAgent: 'alice',
			reason: 'agree',
		},
		{ type: 'round-start', agentId: 'alice', round: 3, snapshot: ['agent1.2'] },
		{
			type: 'vote',
			agentId: 'alice',
			voter: 'alice',
			votedFor: 'agent1.2',
			votedForAgent: 'alice',
			reason: 'mine is fine',
		},
		{ type: 'usage', agentId: 'alice', usage: { inputTokens: 200, outputTokens: 30 }, costUsd: 0.02 },
		{ type: 'winner-selected', agentId: 'alice', label: 'agent1.2', tally: { alice: 3 }, reason: 'votes' },
		{ type: 'presentation-start', agentId: 'alice' },
		{ type: 'text-delta', agentId: 'alice', phase: 'presentation', text: 'Final text' },
		{ type: 'file-edit', agentId: 'alice', phase: 'presentation', path: 'src/parse.ts', kind: 'modify' },
		{ type: 'file-edit', agentId: 'alice', phase: 'presentation', path: 'src/new.ts', kind: 'add' },
		{ type: 'final-answer', agentId: 'alice', label: 'agent1.2', content: '# Final\nUse a map.' },
		{ type: 'run-end', status: 'completed', durationMs: 12_345 },
	];
}

export function convergenceEvents(runId = RUN_ID): RunEvent[] {
	return stamp(convergenceBodies(), runId);
}
