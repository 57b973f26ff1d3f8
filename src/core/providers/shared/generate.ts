import type { Usage } from '../../../contract/runEvents.js';
import type { ChatModel, ChatRequest, FinishReason, ModelEvent, ToolCall } from '../spec/model.js';
import { ProviderError } from '../spec/providerError.js';

export interface Generation {
	readonly text: string;
	readonly reasoning: string;
	readonly toolCalls: readonly ToolCall[];
	readonly usage: Usage | undefined;
	readonly finishReason: FinishReason | undefined;
	/** The finish event's opaque data, to echo on the assistant message built from this call. */
	readonly providerData: Record<string, unknown> | undefined;
	readonly events: readonly ModelEvent[];
}

/**
 * Characters of text and reasoning one response may stream. The largest output limits are about
 * 128,000 tokens (some 512 KB); a stream past 4 Mi characters is an endpoint that does not stop,
 * and is cut before it fills memory and every later request.
 */
export const maxResponseChars = 4 * 1024 * 1024;
/**
 * Characters of tool-call arguments in one response. Higher: an oversize `new_answer` is better
 * refused by its own cap with a workflow error the model can act on than cut off here.
 */
export const maxToolArgumentChars = 64 * 1024 * 1024;

/**
 * Collects one streamed call (adapters have a single, streaming code path).
 * `onEvent` sees every event as it arrives, for callers that forward deltas live. A response past
 * the caps above is cut off with a non-retryable `invalid-response`.
 */
export async function generate(
	model: ChatModel,
	request: ChatRequest,
	signal: AbortSignal,
	onEvent?: (event: ModelEvent) => void,
): Promise<Generation> {
	const events: ModelEvent[] = [];
	let text = '';
	let reasoning = '';
	const toolCalls: ToolCall[] = [];
	let usage: Usage | undefined;
	let finishReason: FinishReason | undefined;
	let providerData: Record<string, unknown> | undefined;
	let streamed = 0;
	let argumentChars = 0;
	for await (const event of model.stream(request, signal)) {
		if (event.type === 'text-delta' || event.type === 'reasoning-delta') streamed += event.text.length;
		if (event.type === 'tool-call') argumentChars += JSON.stringify(event.call.arguments).length;
		// Leaving the loop closes the stream (guardedStream aborts the request).
		if (streamed > maxResponseChars || argumentChars > maxToolArgumentChars) {
			const [what, cap] =
				streamed > maxResponseChars
					? ['text', maxResponseChars]
					: ['tool-call arguments', maxToolArgumentChars];
			throw new ProviderError({
				provider: model.provider,
				kind: 'invalid-response',
				message: `the response passed ${cap} characters of ${what} (the limit for one model response) and was cut off`,
				retryable: false,
			});
		}
		events.push(event);
		onEvent?.(event);
		switch (event.type) {
			case 'text-delta':
				text += event.text;
				break;
			case 'reasoning-delta':
				reasoning += event.text;
				break;
			case 'tool-call':
				toolCalls.push(event.call);
				break;
			case 'usage':
				usage = event.usage;
				break;
			case 'finish':
				finishReason = event.reason;
				providerData = event.providerData;
				break;
		}
	}
	return { text, reasoning, toolCalls, usage, finishReason, providerData, events };
}
