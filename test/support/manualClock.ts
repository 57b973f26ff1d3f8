import type { RunClock } from '../../src/core/util/clock.js';
import { settle } from './settle.js';

interface Timer {
	readonly at: number;
	readonly order: number;
	readonly callback: () => void;
}

/**
 * A run clock that moves only when the test says so: `advance` for a known span, `drive` to run
 * some work to its end, jumping to the next timer whenever nothing but timers is left to wait for.
 * Time never passes on its own, so a test asserts exact times instead of margins.
 */
export class ManualClock implements RunClock {
	private time = 0;
	private order = 0;
	private timers: Timer[] = [];

	now(): number {
		return this.time;
	}

	setTimer(ms: number, callback: () => void): () => void {
		const timer = { at: this.time + Math.max(0, ms), order: this.order++, callback };
		this.timers.push(timer);
		return () => {
			this.timers = this.timers.filter((other) => other !== timer);
		};
	}

	/** Timers not yet fired or cancelled. */
	get pending(): number {
		return this.timers.length;
	}

	/** Moves time on by `ms`, firing the timers due on the way in order, letting the code settle after each. */
	async advance(ms: number): Promise<void> {
		const end = this.time + ms;
		await settle();
		for (let next = this.next(); next !== undefined && next.at <= end; next = this.next()) {
			this.fire(next);
			await settle();
		}
		this.time = end;
	}

	/**
	 * Resolves with `work`'s result. Whenever the process is idle (no pending file system or network
	 * request, promise chains run out), time jumps to the next timer; so a run with a 30 s timeout
	 * ends as soon as its code has nothing else to do.
	 */
	async drive<T>(work: Promise<T>): Promise<T> {
		let done = false;
		const finished = work.finally(() => {
			done = true;
		});
		finished.catch(() => undefined);
		for (;;) {
			await settle();
			if (done) return finished;
			const next = this.next();
			// Nothing due on this clock: the work waits on something real (a process, a socket).
			if (next === undefined) await new Promise((resolve) => setTimeout(resolve, 1));
			else this.fire(next);
		}
	}

	private next(): Timer | undefined {
		let first: Timer | undefined;
		for (const timer of this.timers) {
			if (
				first === undefined ||
				timer.at < first.at ||
				(timer.at === first.at && timer.order < first.order)
			) {
				first = timer;
			}
		}
		return first;
	}

	private fire(timer: Timer): void {
		this.timers = this.timers.filter((other) => other !== timer);
		this.time = Math.max(this.time, timer.at);
		timer.callback();
	}
}
