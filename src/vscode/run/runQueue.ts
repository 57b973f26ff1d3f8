/**
 * Which runs may go now: at most `limit()` at once, the rest wait in order, at most `maxWaiting` of
 * them (a model calling the team tool in a loop cannot queue runs without end). A waiting run can be
 * started now (past the limit), moved or removed. Pure (no VS Code, no timers), so
 * test/unit/vscode/runQueue.test.ts drives it directly; `RunController` owns one.
 */
export type QueueExit = 'go' | 'removed' | 'full';

/** How many runs may wait at once by default. */
export const defaultMaxWaiting = 8;

interface Waiting {
	readonly ticket: string;
	readonly admit: (exit: QueueExit) => void;
}

export class RunQueue {
	private readonly _running = new Set<string>();
	private _waiting: Waiting[] = [];

	constructor(
		private readonly _limit: () => number,
		/** Called after anything changed (a run admitted, queued, moved, removed, released). */
		private readonly _changed: () => void = () => {},
		private readonly _maxWaiting = defaultMaxWaiting,
	) {}

	/** Tickets running now (admitted, not yet released). */
	get running(): readonly string[] {
		return [...this._running];
	}

	/** Tickets waiting, first to go first. */
	get waiting(): readonly string[] {
		return this._waiting.map((entry) => entry.ticket);
	}

	/**
	 * Resolves `go` when `ticket` may run (at once when a slot is free), `removed` if taken out
	 * first, `full` at once when it would have to wait behind `maxWaiting` runs already waiting.
	 */
	enter(ticket: string): Promise<QueueExit> {
		if (this._running.has(ticket) || this._waiting.some((entry) => entry.ticket === ticket)) {
			throw new Error(`run ${ticket} is in the queue already`);
		}
		const mustWait = this._running.size >= Math.max(1, this._limit()) || this._waiting.length > 0;
		if (mustWait && this._waiting.length >= this._maxWaiting) return Promise.resolve('full');
		return new Promise<QueueExit>((admit) => {
			this._waiting.push({ ticket, admit });
			this._pump();
			this._changed();
		});
	}

	/** A running run ended (or a waiting one gave up): its slot goes to the next in line. */
	release(ticket: string): void {
		const removed = this._take(ticket);
		if (removed) removed.admit('removed');
		else if (!this._running.delete(ticket)) return;
		this._pump();
		this._changed();
	}

	/** Starts a waiting run now, past the limit; false when it is not waiting. */
	startNow(ticket: string): boolean {
		const entry = this._take(ticket);
		if (!entry) return false;
		this._admit(entry);
		this._changed();
		return true;
	}

	/** Moves a waiting run `delta` places (negative: earlier); false when it is not waiting. */
	move(ticket: string, delta: number): boolean {
		const from = this._waiting.findIndex((entry) => entry.ticket === ticket);
		if (from < 0) return false;
		const to = Math.max(0, Math.min(this._waiting.length - 1, from + delta));
		if (to === from) return true;
		const [entry] = this._waiting.splice(from, 1);
		this._waiting.splice(to, 0, entry!);
		this._changed();
		return true;
	}

	/** The limit may have risen (a setting changed): admits whoever fits now. */
	refresh(): void {
		if (this._pump()) this._changed();
	}

	private _pump(): boolean {
		let admitted = false;
		while (this._waiting.length > 0 && this._running.size < Math.max(1, this._limit())) {
			this._admit(this._waiting.shift()!);
			admitted = true;
		}
		return admitted;
	}

	private _admit(entry: Waiting): void {
		this._running.add(entry.ticket);
		entry.admit('go');
	}

	private _take(ticket: string): Waiting | undefined {
		const index = this._waiting.findIndex((entry) => entry.ticket === ticket);
		return index < 0 ? undefined : this._waiting.splice(index, 1)[0];
	}
}
