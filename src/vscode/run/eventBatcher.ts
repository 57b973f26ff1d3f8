/**
 * Coalesces a fast stream of items into batches, at most one batch per `intervalMs` (the panel
 * gets one `events` message per ~30 ms however fast the agents stream). Pure: the timer functions
 * are injected so tests drive time.
 */
export interface BatcherTimers {
	set(fn: () => void, ms: number): unknown;
	clear(handle: unknown): void;
}

const realTimers: BatcherTimers = {
	set: (fn, ms) => setTimeout(fn, ms),
	clear: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export class EventBatcher<T> {
	private _items: T[] = [];
	private _timer: unknown = undefined;
	private _disposed = false;

	constructor(
		private readonly _deliver: (batch: readonly T[]) => void,
		private readonly _intervalMs = 30,
		private readonly _timers: BatcherTimers = realTimers,
	) {}

	push(item: T): void {
		if (this._disposed) return;
		this._items.push(item);
		if (this._timer === undefined) this._timer = this._timers.set(() => this.flush(), this._intervalMs);
	}

	/** Delivers what is pending now (e.g. at the end of a run). */
	flush(): void {
		if (this._timer !== undefined) {
			this._timers.clear(this._timer);
			this._timer = undefined;
		}
		if (this._items.length === 0) return;
		const batch = this._items;
		this._items = [];
		this._deliver(batch);
	}

	/** Drops anything pending; later pushes are ignored. */
	dispose(): void {
		this._disposed = true;
		if (this._timer !== undefined) this._timers.clear(this._timer);
		this._timer = undefined;
		this._items = [];
	}
}
