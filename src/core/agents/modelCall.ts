import type { Usage } from '../../contract/runEvents.js';
import { generate, type Generation } from '../providers/shared/generate.js';
import type { ChatModel, ChatRequest, ProviderToolUse } from '../providers/spec/model.js';

export type ModelCallResult = Generation;

export interface ModelCallListener {
	onText(text: string): void;
	onReasoning(text: string): void;
	/** The first sign of output (text, reasoning or a tool call streaming): after it, a restart would throw work away. */
	onFirstOutput(): void;
	/** A provider-native tool ran (web search, code): output, shown like a tool call. */
	onProviderTool?(use: ProviderToolUse): void;
	/** The adapter has something to tell the user about this agent (not output). */
	onNotice?(message: string): void;
}

/** What a call has shown so far, readable by the caller when the call throws (aborted, cut off). */
export interface ModelCallState {
	/**
	 * The latest usage the provider reported. Adapters report it as early as the API does (Anthropic's
	 * input tokens at the start, Gemini's on each chunk), each report superseding the last: record it
	 * once per call — `result.usage` when the call completes, this when it does not.
	 */
	lastUsage: Usage | undefined;
}

/** Runs one streamed model call to its end, forwarding deltas as they arrive. */
export async function runModelCall(
	model: ChatModel,
	request: ChatRequest,
	signal: AbortSignal,
	listener: ModelCallListener,
	state?: ModelCallState,
): Promise<ModelCallResult> {
	let output = false;
	return generate(model, request, signal, (event) => {
		if (event.type === 'usage') {
			if (state) state.lastUsage = event.usage;
			return;
		}
		if (event.type === 'finish') return;
		if (event.type === 'notice') {
			listener.onNotice?.(event.message);
			return;
		}
		if (!output) {
			output = true;
			listener.onFirstOutput();
		}
		if (event.type === 'text-delta') listener.onText(event.text);
		else if (event.type === 'reasoning-delta') listener.onReasoning(event.text);
		else if (event.type === 'provider-tool') listener.onProviderTool?.(event.use);
	});
}
