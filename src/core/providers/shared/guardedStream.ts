import { toProviderError, type ErrorContext } from './errors.js';
import type { ModelEvent } from '../spec/model.js';

/**
 * Runs one adapter call under the `ChatModel` contract: the SDK gets a signal linked to the
 * caller's (so abort, or the consumer leaving the loop early, closes the HTTP stream at once),
 * every failure becomes a `ProviderError`, and an abort is always reported as `aborted` — the
 * SDKs end their streams quietly when aborted, which would otherwise look like a clean finish.
 */
export async function* guardedStream(
	ctx: ErrorContext,
	signal: AbortSignal,
	run: (signal: AbortSignal, ctx: ErrorContext) => AsyncIterable<ModelEvent>,
): AsyncGenerator<ModelEvent> {
	const controller = new AbortController();
	const forward = () => controller.abort(signal.reason);
	const linked: ErrorContext = { ...ctx, signal };
	if (signal.aborted) throw toProviderError(signal.reason, linked);
	signal.addEventListener('abort', forward, { once: true });
	let completed = false;
	try {
		for await (const event of run(controller.signal, linked)) {
			if (signal.aborted) break;
			yield event;
		}
		if (signal.aborted) throw toProviderError(signal.reason, linked);
		completed = true;
	} catch (error) {
		throw toProviderError(error, linked);
	} finally {
		signal.removeEventListener('abort', forward);
		if (!completed) controller.abort();
	}
}
