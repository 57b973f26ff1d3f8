import { describe, expect, it } from 'vitest';
import { type BatcherTimers, EventBatcher } from '../../../src/vscode/run/eventBatcher';

/** Manual clock: `advance(ms)` fires due timers in order. */
function manualTimers() {
	let now = 0;
	let next = 0;
	const pending = new Map<number, { at: number; fn: () => void }>();
	const timers: BatcherTimers = {
		set: (fn, ms) => {
			pending.set(++next, { at: now + ms, fn });
			return next;
		},
		clear: (handle) => void pending.delete(handle as number),
	};
	const advance = (ms: number) => {
		const until = now + ms;
		for (;;) {
			const due = [...pending.entries()]
				.filter(([, t]) => t.at <= until)
				.sort((a, b) => a[1].at - b[1].at)[0];
			if (!due) break;
			pending.delete(due[0]);
			now = due[1].at;
			due[1].fn();
		}
		now = until;
	};
	return { timers, advance, pendingCount: () => pending.size };
}

describe('EventBatcher', () => {
	it('delivers at most one batch per interval, in order, however fast items arrive', () => {
		const { timers, advance } = manualTimers();
		const batches: number[][] = [];
		const batcher = new EventBatcher<number>((b) => batches.push([...b]), 30, timers);
		for (let i = 0; i < 100; i++) {
			batcher.push(i);
			advance(1); // 1000 items/s
		}
		advance(30);
		expect(batches.flat()).toEqual([...Array(100).keys()]);
		// 100 ms of items at one batch per 30 ms: 4 batches (not 100 posts).
		expect(batches.length).toBe(4);
	});

	it('sends nothing when idle, and the first item of a burst waits at most one interval', () => {
		const { timers, advance, pendingCount } = manualTimers();
		const batches: string[][] = [];
		const batcher = new EventBatcher<string>((b) => batches.push([...b]), 30, timers);
		advance(500);
		expect(batches).toEqual([]);
		expect(pendingCount()).toBe(0);
		batcher.push('a');
		advance(29);
		expect(batches).toEqual([]);
		advance(1);
		expect(batches).toEqual([['a']]);
	});

	it('flush delivers at once; dispose drops pending items and ignores later ones', () => {
		const { timers, advance, pendingCount } = manualTimers();
		const batches: string[][] = [];
		const batcher = new EventBatcher<string>((b) => batches.push([...b]), 30, timers);
		batcher.push('a');
		batcher.flush();
		expect(batches).toEqual([['a']]);
		expect(pendingCount()).toBe(0);
		batcher.push('b');
		batcher.dispose();
		batcher.push('c');
		advance(100);
		expect(batches).toEqual([['a']]);
	});
});
