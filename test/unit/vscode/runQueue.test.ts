import { describe, expect, it } from 'vitest';
import { RunQueue, type QueueExit } from '../../../src/vscode/run/runQueue.js';

/** Enters `ticket` and records how it left the queue (still pending: undefined). */
function enter(queue: RunQueue, ticket: string): { exit: QueueExit | undefined } {
	const seen: { exit: QueueExit | undefined } = { exit: undefined };
	void queue.enter(ticket).then((exit) => (seen.exit = exit));
	return seen;
}

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('RunQueue', () => {
	it('admits up to the limit at once; the next waits until one is released, first in first out', async () => {
		const queue = new RunQueue(() => 2);
		const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((ticket) => enter(queue, ticket));
		await settle();
		expect([a!.exit, b!.exit, c!.exit, d!.exit]).toEqual(['go', 'go', undefined, undefined]);
		expect(queue.running).toEqual(['a', 'b']);
		expect(queue.waiting).toEqual(['c', 'd']);
		queue.release('b');
		await settle();
		expect(c!.exit).toBe('go');
		expect(d!.exit).toBeUndefined();
		expect(queue.running).toEqual(['a', 'c']);
	});

	it('starts a waiting run now past the limit, reorders, and removes one (it leaves as removed)', async () => {
		const queue = new RunQueue(() => 1);
		enter(queue, 'a');
		const [b, c, d] = ['b', 'c', 'd'].map((ticket) => enter(queue, ticket));
		expect(queue.move('d', -5)).toBe(true);
		expect(queue.waiting).toEqual(['d', 'b', 'c']);
		expect(queue.move('b', 1)).toBe(true);
		expect(queue.waiting).toEqual(['d', 'c', 'b']);
		expect(queue.startNow('c')).toBe(true);
		queue.release('b');
		await settle();
		expect([b!.exit, c!.exit, d!.exit]).toEqual(['removed', 'go', undefined]);
		expect(queue.running).toEqual(['a', 'c']);
		expect(queue.waiting).toEqual(['d']);
		// Neither running nor waiting: nothing to do.
		expect(queue.startNow('a')).toBe(false);
		expect(queue.move('zz', 1)).toBe(false);
		queue.release('zz');
		expect(queue.running).toEqual(['a', 'c']);
	});

	it('admits the waiting when the limit rises; a limit below 1 still lets one run', async () => {
		let limit = 0;
		const changes: string[] = [];
		const queue = new RunQueue(
			() => limit,
			() => changes.push(`${queue.running.join(',')}|${queue.waiting.join(',')}`),
		);
		const [a, b, c] = ['a', 'b', 'c'].map((ticket) => enter(queue, ticket));
		await settle();
		expect([a!.exit, b!.exit, c!.exit]).toEqual(['go', undefined, undefined]);
		limit = 3;
		queue.refresh();
		await settle();
		expect([b!.exit, c!.exit]).toEqual(['go', 'go']);
		expect(changes.at(-1)).toBe('a,b,c|');
		expect(() => queue.enter('a')).toThrow(/already/);
	});
	it('refuses a run that would wait behind maxWaiting runs; one that can start at once always enters', async () => {
		const queue = new RunQueue(() => 1, undefined, 2);
		const [a, b, c] = ['a', 'b', 'c'].map((ticket) => enter(queue, ticket));
		const d = enter(queue, 'd');
		await settle();
		expect([a!.exit, b!.exit, c!.exit, d.exit]).toEqual(['go', undefined, undefined, 'full']);
		expect(queue.waiting).toEqual(['b', 'c']);
		// A slot frees: b goes, and a new run may wait again.
		queue.release('a');
		const e = enter(queue, 'e');
		await settle();
		expect([b!.exit, e.exit]).toEqual(['go', undefined]);
		expect(queue.waiting).toEqual(['c', 'e']);
		const limitless = new RunQueue(() => 5, undefined, 0);
		const f = enter(limitless, 'f');
		await settle();
		expect(f.exit).toBe('go');
	});
});
