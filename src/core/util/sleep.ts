import { realClock, type RunClock } from './clock.js';

/** Resolves after `ms` on `clock`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal, clock: RunClock = realClock): Promise<void> {
	if (signal?.aborted) return Promise.reject(signal.reason);
	return new Promise((resolve, reject) => {
		const cancel = clock.setTimer(ms, () => {
			signal?.removeEventListener('abort', onAbort);
			resolve();
		});
		const onAbort = () => {
			cancel();
			reject(signal?.reason);
		};
		signal?.addEventListener('abort', onAbort, { once: true });
	});
}
