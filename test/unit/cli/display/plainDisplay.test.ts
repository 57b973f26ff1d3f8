import { describe, expect, it } from 'vitest';
import { createDisplay } from '../../../../src/cli/display/createDisplay.js';
import { PlainDisplay } from '../../../../src/cli/display/plainDisplay.js';
import { TtyDisplay } from '../../../../src/cli/display/ttyDisplay.js';
import type { RunEventBody } from '../../../../src/contract/runEvents.js';
import { stamp } from '../../protocol/eventFixtures.js';
import { convergenceEvents } from '../../protocol/scenarios.js';
import { FakeStream } from './fakeStream.js';

describe('PlainDisplay', () => {
	it('prints one plain line per meaningful event of a converging run', () => {
		const stream = new FakeStream(false);
		const display = new PlainDisplay(stream);
		for (const event of convergenceEvents()) display.onEvent(event);
		display.close();
		expect(stream.text.split('\n')).toEqual([
			'run 20250102-030405-abcd: 3 agents: alice (openai/gpt-4o), bob (claude/claude-sonnet-4), carol (gemini/gemini-2.5-pro)',
			'alice: round 1',
			'bob: round 1',
			'carol: round 1',
			'alice: new answer agent1.1 (2 chars)',
			'carol: update injected (agent1.1)',
			'bob: round 2 (sees agent1.1)',
			'bob votes agent1.1: good',
			'alice: round 2 (sees agent1.1)',
			'alice: new answer agent1.2 (2 chars)',
			'agent1.2 invalidates the votes of bob',
			'bob: round 3 (sees agent1.2)',
			'bob votes agent1.2: better',
			'carol votes agent1.2: agree',
			'alice: round 3 (sees agent1.2)',
			'alice votes agent1.2: mine is fine',
			'winner: alice with agent1.2 (3 votes)',
			'alice: presenting the final answer',
			'alice: modify src/parse.ts',
			'alice: add src/new.ts',
			'final answer: agent1.2 by alice (18 chars)',
			'run completed in 12.3s, 2 files changed',
			'',
		]);
		expect(stream.text).not.toContain('\u001b');
	});

	it('prints errors, kills, refusals and failed runs, and skips duplicates', () => {
		const stream = new FakeStream(false);
		const display = new PlainDisplay(stream);
		const bodies: RunEventBody[] = [
			{
				type: 'run-start',
				question: 'q',
				workspace: '/',
				agents: [{ agentId: 'a', anonId: 'agent1', provider: 'p', model: 'm' }],
			},
			{
				type: 'tool-result',
				agentId: 'a',
				phase: 'coordination',
				callId: 'c',
				name: 'read_file',
				isError: true,
				text: '.env is a secrets file',
			},
			{ type: 'workflow-error', agentId: 'a', attempt: 2, message: 'no workflow call' },
			{
				type: 'agent-error',
				agentId: 'a',
				message: 'overloaded',
				kind: 'server',
				retryable: true,
				failures: 2,
			},
			{ type: 'agent-killed', agentId: 'a', reason: 'failed 3 times' },
			{ type: 'winner-selected', agentId: 'a', label: 'agent1.1', tally: {}, reason: 'no-votes' },
			{ type: 'run-end', status: 'failed', durationMs: 61_000, error: 'all agents failed' },
		];
		const events = stamp(bodies);
		for (const event of [...events, ...events]) display.onEvent(event);
		expect(stream.text.split('\n').slice(1, -1)).toEqual([
			'a: read_file failed: .env is a secrets file',
			'a: workflow error (attempt 2): no workflow call',
			'a: server error (failure 2, retrying): overloaded',
			'a: killed: failed 3 times',
			'winner: a with agent1.1 (no votes)',
			'run failed after 1m01s: all agents failed',
		]);
	});

	it('strips escape sequences from model text and truncates to the terminal width', () => {
		const stream = new FakeStream(false, 40);
		const display = new PlainDisplay(stream);
		const events = stamp([
			{ type: 'run-start', question: 'q', workspace: '/', agents: [] },
			{
				type: 'vote',
				agentId: 'bob',
				voter: 'bob',
				votedFor: 'agent1.1',
				votedForAgent: 'a',
				reason: 'ok\u001b[2J\u001b]0;pwned\u0007\nnext line',
			},
			{
				type: 'vote',
				agentId: 'bob',
				voter: 'bob',
				votedFor: 'agent1.1',
				votedForAgent: 'a',
				reason: 'x'.repeat(100),
			},
		]);
		for (const event of events) display.onEvent(event);
		const lines = stream.text.split('\n');
		expect(lines[1]).toBe('bob votes agent1.1: ok next line');
		expect(lines[2]).toHaveLength(40);
		expect(lines[2]!.endsWith('…')).toBe(true);
		expect(stream.text).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
	});
});

describe('createDisplay', () => {
	it('uses the live table on a terminal and plain lines otherwise', () => {
		expect(createDisplay(new FakeStream(true, 100), { env: {} })).toBeInstanceOf(TtyDisplay);
		expect(createDisplay(new FakeStream(false), { env: {} })).toBeInstanceOf(PlainDisplay);
		expect(createDisplay(new FakeStream(true, 100), { env: { TERM: 'dumb' } })).toBeInstanceOf(PlainDisplay);
		expect(createDisplay(process.stderr, { env: {} })).toBeDefined();
	});
});
