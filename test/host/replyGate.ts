// The loopback servers' `hold` for in-host tests that keep runs open as long as they need.
import type { RecordedRequest } from '../servers/loopbackProvider';

/** Replies wait until `open()`; `close()` holds the next ones again. */
export function replyGate() {
	let release!: () => void;
	let held = new Promise<void>((resolve) => (release = resolve));
	return {
		wait: () => held,
		open: () => release(),
		close: () => {
			held = new Promise<void>((resolve) => (release = resolve));
		},
	};
}

/** Whether a recorded model request carries `question` (which run it belongs to). */
export const asks = (request: RecordedRequest, question: string) =>
	request.prompt.texts.join('\n').includes(question);
