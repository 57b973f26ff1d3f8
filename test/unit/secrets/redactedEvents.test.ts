import { describe, expect, it } from 'vitest';
import type { RunEvent, RunEventBody } from '../../../src/contract/runEvents.js';
import { REDACTED, Redactor } from '../../../src/core/secrets/redactor.js';
import { RedactedEvents, redactEvents } from '../../../src/core/secrets/redactedEvents.js';

const secret = 'sk-test-SPLITSECRET-0123456789';

function numbered(bodies: RunEventBody[]): RunEvent[] {
	return bodies.map((body, seq) => ({ runId: 'r', seq, t: seq, ...body }) as RunEvent);
}

const delta = (agentId: string, text: string): RunEventBody => ({
	type: 'text-delta',
	agentId,
	phase: 'coordination',
	text,
});

/** What a display shows: the deltas of one agent joined. */
function streamed(events: readonly RunEvent[], agentId: string): string {
	return events
		.map((event) => (event.type === 'text-delta' && event.agentId === agentId ? event.text : ''))
		.join('');
}

async function collect(bodies: RunEventBody[], secrets: string[]): Promise<RunEvent[]> {
	async function* source() {
		yield* numbered(bodies);
	}
	const out: RunEvent[] = [];
	for await (const event of redactEvents(source(), new Redactor(secrets))) out.push(event);
	return out;
}

describe('redactEvents', () => {
	it('catches a secret split across two deltas, with another agent streaming in between', async () => {
		const out = await collect(
			[
				delta('a', `the key is ${secret.slice(0, 12)}`),
				delta('b', 'hello'),
				delta('a', `${secret.slice(12)} ok`),
				{ type: 'new-answer', agentId: 'a', label: 'agent1.1', content: `key ${secret}` },
			],
			[secret],
		);
		const serialized = out.map((event) => JSON.stringify(event)).join('\n');
		expect(serialized).not.toContain(secret);
		expect(serialized).not.toContain(secret.slice(0, 12));
		expect(streamed(out, 'a')).toBe(`the key is ${REDACTED} ok`);
		expect(streamed(out, 'b')).toBe('hello');
		expect(out.at(-1)).toMatchObject({ type: 'new-answer', content: `key ${REDACTED}` });
	});

	it('keeps seq monotonic without gaps and releases a kept-back tail before the agent’s next event', async () => {
		const out = await collect(
			[
				delta('a', 'ends with sk-te'),
				{ type: 'tool-call', agentId: 'a', phase: 'coordination', callId: 'c', name: 'read_file', args: {} },
			],
			[secret],
		);
		expect(out.map((event) => event.seq)).toEqual([0, 1, 2]);
		expect(out.map((event) => event.type)).toEqual(['text-delta', 'text-delta', 'tool-call']);
		expect(streamed(out, 'a')).toBe('ends with sk-te');
	});

	it('flushes kept-back text when the events end', async () => {
		const out = await collect([delta('a', 'trailing s')], [secret]);
		expect(streamed(out, 'a')).toBe('trailing s');
	});

	it('a whole secret just before a possible prefix of another is still redacted', () => {
		const stream = new RedactedEvents(new Redactor(['abcd', 'cdxyzw']));
		const out = [...stream.push(numbered([delta('a', 'x abcd')])[0]!), ...stream.end()];
		expect(streamed(out, 'a')).toBe(`x ${REDACTED}`);
	});

	it('a secret split over a reasoning stream and a text stream is not joined (different streams)', async () => {
		const out = await collect(
			[
				{ type: 'reasoning-delta', agentId: 'a', phase: 'coordination', text: 'think sk' },
				delta('a', 'plain'),
			],
			[secret],
		);
		expect(out.map((event) => [event.type, 'text' in event ? event.text : ''])).toEqual([
			['reasoning-delta', 'think '],
			['reasoning-delta', 'sk'],
			['text-delta', 'plain'],
		]);
	});

	it('passes events through unchanged (but renumbered) when there is nothing to hide', async () => {
		const out = await collect(
			[delta('a', 'hello'), { type: 'run-end', status: 'completed', durationMs: 1 }],
			[],
		);
		expect(out).toEqual(
			numbered([delta('a', 'hello'), { type: 'run-end', status: 'completed', durationMs: 1 }]),
		);
	});
});
