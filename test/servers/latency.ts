import type { ServerResponse } from 'node:http';
import { realClock, type RunClock } from '../../src/core/util/clock.js';

/** How long one request takes at a provider: the prefill before the first event, then the stream. */
export interface Latency {
	/** Time from the request to the first streamed event (headers go out at once). */
	readonly firstByteMs: number;
	/** Time from the first output event to the last: the output events are spread evenly over it. */
	readonly streamMs: number;
}

/**
 * Latency per request. Several agents share one server per protocol, so a plan is keyed by the
 * request's model name (a map), or decides from the request itself (a function).
 */
export type LatencyPlan =
	| Readonly<Record<string, Latency>>
	| ((request: { readonly model: string; readonly body: unknown }) => Latency | undefined);

export function latencyFor(
	plan: LatencyPlan | undefined,
	request: { readonly model: string; readonly body: unknown },
): Latency | undefined {
	if (!plan) return undefined;
	return typeof plan === 'function' ? plan(request) : plan[request.model];
}

/**
 * The pause after each event of a stream of `count` events whose first `preamble` carry no output:
 * the preamble and the first output event go out together, the rest spread over `streamMs`.
 */
export function pacing(latency: Latency, count: number, preamble: number): (index: number) => number {
	const firstOutput = Math.min(preamble, count - 1);
	const gaps = count - 1 - firstOutput;
	const gap = gaps > 0 ? latency.streamMs / gaps : 0;
	return (index) => (index >= firstOutput && index < count - 1 ? gap : 0);
}

/** Waits `ms` on `clock`, or less if the client closes the connection meanwhile. */
export function pause(res: ServerResponse, ms: number, clock: RunClock = realClock): Promise<void> {
	if (ms <= 0 || res.destroyed) return Promise.resolve();
	return new Promise<void>((resolve) => {
		const done = () => {
			cancel();
			res.off('close', done);
			resolve();
		};
		const cancel = clock.setTimer(ms, done);
		res.once('close', done);
	});
}
