/** An unbounded single-consumer async queue: the producer never waits for a slow consumer. */
export class EventQueue<T> implements AsyncIterable<T> {
	private readonly items: T[] = [];
	private waiter: ((result: IteratorResult<T>) => void) | undefined;
	private closed = false;

	push(item: T): void {
		if (this.closed) return;
		const waiter = this.waiter;
		if (waiter) {
			this.waiter = undefined;
			waiter({ value: item, done: false });
		} else {
			this.items.push(item);
		}
	}

	close(): void {
		this.closed = true;
		const waiter = this.waiter;
		this.waiter = undefined;
		waiter?.({ value: undefined, done: true });
	}

	[Symbol.asyncIterator](): AsyncIterator<T> {
		return {
			next: () => {
				const item = this.items.shift();
				if (item !== undefined) return Promise.resolve({ value: item, done: false });
				if (this.closed) return Promise.resolve({ value: undefined, done: true });
				return new Promise((resolve) => (this.waiter = resolve));
			},
		};
	}
}
