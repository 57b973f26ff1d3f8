import type { RunEvent, RunEventBody } from '../../contract/runEvents.js';
import type { RunClock } from '../util/clock.js';
import { EventQueue } from '../util/eventQueue.js';

/** The run's events: numbered, timed from the run's start, and closed after `run-end`. */
export class RunEventStream {
	readonly queue = new EventQueue<RunEvent>();
	private readonly startedAt: number;
	private seq = 0;
	private ended = false;

	constructor(
		private readonly runId: string,
		private readonly clock: RunClock,
	) {
		this.startedAt = clock.now();
	}

	/** Run time (ms). */
	now(): number {
		return this.clock.now() - this.startedAt;
	}

	emit(body: RunEventBody): void {
		if (this.ended) return;
		if (body.type === 'run-end') this.ended = true;
		this.queue.push({ runId: this.runId, seq: this.seq++, t: Math.round(this.now()), ...body } as RunEvent);
	}
}
