/**
 * A flood of messages to a running team (an inbox anyone can write to, a script gone wrong): every
 * message goes into every later request of its agents, pinned through compaction, so without a
 * bound a thousand files of 8,000 characters would make every request megabytes and the run's cost
 * unbounded. The run takes a bounded number and size of messages, and says so to the sender.
 */
import { describe, expect, it } from 'vitest';
import type { Orchestrator } from '../../../src/core/orchestrator/orchestrator.js';
import type { SteerOutcome } from '../../../src/core/orchestrator/steerInbox.js';
import type { ScriptedHandler } from '../../../src/core/providers/vendors/scriptedModel.js';
import { answerThenVote, read, runTeam } from '../../fakes/team.js';
import { ManualClock } from '../../support/manualClock.js';

/** `handler`, which also calls `act` when its first coordination call starts. */
function actingFirst(act: () => void, handler: ScriptedHandler): ScriptedHandler {
	return (request, call) => {
		if (call === 0 && !read.isPresentation(request)) act();
		return handler(request, call);
	};
}

async function flood(count: number, text: (i: number) => string) {
	let orchestrator!: Orchestrator;
	const outcomes: SteerOutcome[] = [];
	const send = () => {
		for (let i = 0; i < count; i++) outcomes.push(orchestrator.steer({ text: text(i), noteOnly: true }));
	};
	const run = await runTeam(
		[
			{ id: 'alice', handler: actingFirst(send, answerThenVote('A')), options: { latencyMs: 10 } },
			{ id: 'bob', handler: answerThenVote('B'), options: { latencyMs: 20 } },
		],
		{ clock: new ManualClock(), control: (o) => (orchestrator = o) },
	);
	const largest = Math.max(
		...[...run.models.values()].flatMap((model) =>
			model.requests.map((r) => r.messages.reduce((sum, m) => sum + m.content.length, 0)),
		),
	);
	return { run, outcomes, accepted: outcomes.filter((o) => o.ok).length, largest };
}

describe('a flood of messages to a running team', () => {
	it('large messages: at most 32,000 characters of them in a run; the rest refused with the reason', async () => {
		const { run, outcomes, accepted, largest } = await flood(1_000, (i) => `${i} ${'x'.repeat(7_990)}`);
		expect(accepted).toBe(4);
		expect(outcomes.at(-1)).toEqual({
			ok: false,
			reason: expect.stringContaining('32,000 characters'),
		});
		expect(run.result.steering).toHaveLength(4);
		// Every request stays small: the accepted messages and the prompt, not a thousand messages.
		expect(largest).toBeLessThan(45_000);
		expect(run.result.status).toBe('completed');
	});

	it('many small messages: at most 64 in a run', async () => {
		const { outcomes, accepted, largest } = await flood(10_000, (i) => `message ${i}`);
		expect(accepted).toBe(64);
		expect(outcomes.at(-1)).toEqual({ ok: false, reason: expect.stringContaining('64 messages') });
		expect(largest).toBeLessThan(64 * 400 + 8_000);
	});
});
