import type { Usage } from '../events/runEvents.js';
import type { ChatModel, ChatRequest, FinishReason, ModelEvent, ToolCall } from './model.js';

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
 * Collects one streamed call (house-style §3.3: adapters have a single, streaming code path).
 * `onEvent` sees every event as it arrives, for callers that forward deltas live.
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
	for await (const event of model.stream(request, signal)) {
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
