/**
 * What one MCP server may send us. A server is outside code (often a repository's, or a remote
 * host): without bounds one 12 MB message, a 20,000-tool list or an SSE event without end would
 * exhaust memory or every request's context. Past a bound the server's session ends with the
 * reason (its tools report it as a tool error) and the run goes on. Sizes are UTF-8 bytes.
 */
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';

/**
 * One JSON-RPC message (a stdio line, an HTTP response body, one SSE event). The SDK's own stdio
 * default; no result the model reads comes near it (tool results are cut to 100,000 characters
 * before a model sees them), so a larger message is a mistake or an attack on memory.
 */
export const maxMcpMessageBytes = 10 * 1024 * 1024;
/**
 * Tools one server may list: the largest real servers list about a hundred (GitHub's ~100), and
 * OpenAI takes at most 128 tools per request; each listed tool rides on every request.
 */
export const maxMcpTools = 1_000;
/**
 * All of one server's tool definitions (name, description, input schema) as JSON. Large real
 * servers need well under 200 KB; 1 MiB is some 250,000 tokens on every request of every agent.
 */
export const maxMcpToolListBytes = 1024 * 1024;

/**
 * Characters kept of why a server is unavailable (its own error text, a transport's reason): the
 * reason becomes a `notice` event (`events.jsonl`, the panel, a notification) and every later call's
 * tool error, and a server's error message may be megabytes.
 */
export const maxMcpReasonChars = 2_000;

const mib = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(0)} MiB`;

export function messageTooLarge(bytes: number): string {
	return `the server sent a message of more than ${bytes} bytes (over the ${mib(maxMcpMessageBytes)} limit for one MCP message); its session was ended`;
}

/**
 * A fetch for the SDK's HTTP transports that bounds what a response may deliver: a JSON body at
 * most `maxMcpMessageBytes`, and an SSE stream's events each at most that (a stream may live
 * long: a server's notifications; one event may not grow without end). Past it the body errors
 * and `onOversize` ends the session, which fails the pending calls with the reason.
 */
export function boundedFetch(onOversize: (reason: string) => void, base: FetchLike = fetch): FetchLike {
	return async (url, init) => {
		const response = await base(url, init);
		// Redirects are read by the SDK (status, Location, url): left as they are, bodiless.
		if (response.body === null || response.status < 200 || response.status >= 300) return response;
		const events = response.headers.get('content-type')?.includes('text/event-stream') === true;
		const body = response.body.pipeThrough(limitStream(events, onOversize));
		return new Response(body, {
			status: response.status,
			statusText: response.statusText,
			headers: response.headers,
		});
	};
}

/** Passes bytes through until a body (or, for `events`, one SSE event) exceeds the message cap. */
function limitStream(
	events: boolean,
	onOversize: (reason: string) => void,
): TransformStream<Uint8Array, Uint8Array> {
	let size = 0;
	// SSE: an event ends at a blank line. `lineBytes` counts the current line (a lone '\r' is blank).
	let lineBytes = 0;
	let lineOnlyCr = true;
	return new TransformStream({
		transform(chunk, controller) {
			if (!events) size += chunk.byteLength;
			else {
				for (let pos = 0; pos <= chunk.length;) {
					const newline = chunk.indexOf(10, pos);
					const end = newline === -1 ? chunk.length : newline;
					for (let i = pos; i < end && lineOnlyCr; i++) lineOnlyCr = chunk[i] === 13;
					lineBytes += end - pos;
					size += end - pos;
					if (newline === -1) break;
					if (lineBytes === 0 || (lineBytes === 1 && lineOnlyCr)) size = 0;
					lineBytes = 0;
					lineOnlyCr = true;
					pos = newline + 1;
				}
			}
			if (size > maxMcpMessageBytes) {
				const reason = messageTooLarge(maxMcpMessageBytes);
				onOversize(reason);
				controller.error(new Error(reason));
				return;
			}
			controller.enqueue(chunk);
		},
	});
}

/**
 * Checks a server's tool list against the caps; the reason it is refused, or null. `listed` is
 * what the server sent (before any filter: every listed tool was sent to us).
 */
export function toolListRefusal(count: number, jsonBytes: number): string | null {
	if (count > maxMcpTools) {
		return `the server lists more than ${maxMcpTools} tools (the limit); its session was ended`;
	}
	if (jsonBytes > maxMcpToolListBytes) {
		return `the server's tool definitions are ${jsonBytes} bytes, over the ${mib(maxMcpToolListBytes)} limit (they would ride on every request); its session was ended`;
	}
	return null;
}
