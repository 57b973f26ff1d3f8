/**
 * Test fixtures: one valid event of every RunEvent type, and a helper that stamps bodies with
 * runId/seq/t. The mapped type makes adding an event type to the contract a compile error here
 * until it has a sample.
 */
import type { RunEvent, RunEventBody, RunEventType } from '../../../src/contract/runEvents.js';

export const RUN_ID = '20250102-030405-abcd';

type Samples = { [K in RunEventType]: Extract<RunEventBody, { type: K }> };

const samples: Samples = {
	'run-start': {
		type: 'run-start',
		question: 'Refactor parse() — keep the API «stable»?',
		workspace: '/tmp/ws',
		agents: [
			{ agentId: 'alice', anonId: 'agent1', provider: 'openai', model: 'gpt-4o' },
			{ agentId: 'bob', anonId: 'agent2', provider: 'claude', model: 'claude-sonnet-4' },
		],
		attachments: [
			{
				kind: 'file',
				source: 'src/parse.ts',
				lines: { start: 3, end: 9 },
				bytes: 120,
				sha256: 'ab'.repeat(32),
			},
			{ kind: 'diff', source: 'working-tree', bytes: 4096, sha256: 'cd'.repeat(32), truncated: true },
		],
	},
	'round-start': { type: 'round-start', agentId: 'alice', round: 1, snapshot: [] },
	'text-delta': {
		type: 'text-delta',
		agentId: 'alice',
		phase: 'coordination',
		text: 'Hello\n"quoted" \u2028 ✓',
	},
	'reasoning-delta': { type: 'reasoning-delta', agentId: 'alice', phase: 'coordination', text: 'thinking…' },
	'tool-call': {
		type: 'tool-call',
		agentId: 'alice',
		phase: 'coordination',
		callId: 'call_1',
		name: 'read_file',
		args: { path: 'src/a.ts', nested: { list: [1, 'two', null, true] } },
	},
	'tool-result': {
		type: 'tool-result',
		agentId: 'alice',
		phase: 'coordination',
		callId: 'call_1',
		name: 'read_file',
		isError: false,
		text: 'export const a = 1;\n',
	},
	'provider-tool': {
		type: 'provider-tool',
		agentId: 'bob',
		phase: 'coordination',
		callId: 'srvtoolu_1',
		kind: 'search',
		query: 'vitest latest version',
		sources: [{ title: 'Vitest', url: 'https://vitest.dev/' }],
		isError: false,
	},
	'approval-request': {
		type: 'approval-request',
		agentId: 'bob',
		requestId: 'req-1',
		action: 'run_command',
		target: 'npm test',
		reason: 'commands need approval',
	},
	'approval-result': {
		type: 'approval-result',
		agentId: 'bob',
		requestId: 'req-1',
		decision: 'allow',
		by: 'user',
	},
	'command-sandbox': {
		type: 'command-sandbox',
		mode: 'bubblewrap',
		network: false,
		notice: 'run_command: commands run in a bubblewrap sandbox',
	},
	notice: {
		type: 'notice',
		agentId: 'bob',
		message: 'bob (vscode_lm/gpt-4o) cannot take images: it gets the text attachments only',
	},
	'evaluation-start': { type: 'evaluation-start', agentId: 'alice', attempt: 1 },
	'evaluation-end': {
		type: 'evaluation-end',
		agentId: 'alice',
		attempt: 1,
		verdict: 'restart',
		reason: 'The tests were not run.',
		instructions: 'Run the tests and fix what fails.',
	},
	'attempt-start': {
		type: 'attempt-start',
		attempt: 2,
		reason: 'The tests were not run.',
		instructions: 'Run the tests and fix what fails.',
	},
	'update-injected': { type: 'update-injected', agentId: 'bob', labels: ['agent1.1'] },
	steer: {
		type: 'steer',
		id: 1,
		text: 'Keep the public API «stable» — no renames.',
		agents: ['bob'],
		targetAgentId: 'bob',
		noteOnly: false,
	},
	'steer-delivered': { type: 'steer-delivered', id: 1, agentId: 'bob', phase: 'coordination' },
	'coordination-end': {
		type: 'coordination-end',
		ended: 'quorum',
		quorum: { required: 2, votes: 2, label: 'agent1.1' },
		saved: { callsStopped: 1, agentsNotWaitedFor: ['carol'], estimatedCostUsd: 0.0042 },
	},
	'new-answer': {
		type: 'new-answer',
		agentId: 'alice',
		label: 'agent1.1',
		content: '# Answer\n\nUse a map.',
	},
	vote: {
		type: 'vote',
		agentId: 'bob',
		voter: 'bob',
		votedFor: 'agent1.1',
		votedForAgent: 'alice',
		reason: 'complete and correct',
		scores: [{ label: 'agent1.1', criteria: [{ id: 'C1', score: 8 }] }],
	},
	checklist: {
		type: 'checklist',
		criteria: [{ id: 'C1', text: 'Handles empty input', category: 'primary', round: 0 }],
		threshold: 7,
	},
	'votes-invalidated': { type: 'votes-invalidated', voters: ['bob'], byLabel: 'agent1.2' },
	'workflow-error': {
		type: 'workflow-error',
		agentId: 'bob',
		attempt: 1,
		message: 'vote: unknown agent_id "agent9"',
	},
	'agent-error': {
		type: 'agent-error',
		agentId: 'bob',
		message: '429 rate limited',
		kind: 'rate-limit',
		retryable: true,
		failures: 1,
	},
	'agent-killed': { type: 'agent-killed', agentId: 'bob', reason: 'failed 3 times' },
	'agent-stopped': { type: 'agent-stopped', agentId: 'bob', reason: 'user' },
	'budget-reached': {
		type: 'budget-reached',
		kind: 'cost',
		limit: 0.01,
		spent: 0.0123,
		reason: 'cost budget reached: $0.0123 of $0.0100 (--max-cost)',
	},
	'winner-selected': {
		type: 'winner-selected',
		agentId: 'alice',
		label: 'agent1.1',
		tally: { alice: 2, bob: 0 },
		reason: 'votes',
	},
	'presentation-start': { type: 'presentation-start', agentId: 'alice' },
	'file-edit': {
		type: 'file-edit',
		agentId: 'alice',
		phase: 'presentation',
		path: 'src/a.ts',
		kind: 'modify',
	},
	'final-answer': { type: 'final-answer', agentId: 'alice', label: 'agent1.1', content: 'Final: use a map.' },
	'call-aborted': {
		type: 'call-aborted',
		agentId: 'bob',
		phase: 'coordination',
		reason: 'stale',
		elapsedMs: 40,
		hadOutput: false,
		usage: { inputTokens: 900, outputTokens: 0, cachedInputTokens: 800 },
	},
	compacted: {
		type: 'compacted',
		agentId: 'bob',
		phase: 'coordination',
		tokensBefore: 9_400,
		tokensAfter: 3_100,
		how: 'summary',
		messagesSummarised: 12,
	},
	usage: {
		type: 'usage',
		agentId: 'alice',
		usage: { inputTokens: 1200, outputTokens: 300, reasoningTokens: 50, cachedInputTokens: 100 },
		costUsd: 0.0123,
	},
	'run-end': { type: 'run-end', status: 'failed', durationMs: 4321, error: 'all agents failed' },
};

/** One valid event of each type, in contract order, with seq 0.. and t 0, 10, 20… */
export function oneEventOfEachType(runId = RUN_ID): RunEvent[] {
	return stamp(Object.values(samples) as RunEventBody[], runId);
}

export const allEventTypes = Object.keys(samples) as RunEventType[];

/** Stamps bodies into events: seq from `firstSeq`, t advancing by `step` ms. */
export function stamp(bodies: readonly RunEventBody[], runId = RUN_ID, firstSeq = 0, step = 10): RunEvent[] {
	return bodies.map(
		(body, i) => ({ ...body, runId, seq: firstSeq + i, t: (firstSeq + i) * step }) as RunEvent,
	);
}
