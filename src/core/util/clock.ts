/**
 * The run's time. Every coordination timer (the coordination, turn and presentation timeouts, retry
 * backoff) and the scripted model's latency run on the clock the run is given, so a test drives a
 * whole run on a manual clock (`test/support/manualClock.ts`) instead of waiting on real time.
 */
export interface RunClock {
	/** Milliseconds on a monotonic scale: only differences mean anything. */
	now(): number;
	/** Calls `callback` once, `ms` from now; the returned function cancels it. */
	setTimer(ms: number, callback: () => void): () => void;
}

export const realClock: RunClock = {
	now: () => performance.now(),
	setTimer(ms, callback) {
		const timer = setTimeout(callback, ms);
		return () => clearTimeout(timer);
	},
};
