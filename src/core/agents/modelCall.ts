import { generate, type Generation } from '../providers/generate.js';
import type { ChatModel, ChatRequest } from '../providers/model.js';

export type ModelCallResult = Generation;

export interface ModelCallListener {
	onText(text: string): void;
	onReasoning(text: string): void;
	/** The first sign of output: after it, a restart would throw work away. */
	onFirstOutput(): void;
}

/** Runs one streamed model call to its end, forwarding deltas as they arrive. */
export async function runModelCall(
	model: ChatModel,
	request: ChatRequest,
	signal: AbortSignal,
	listener: ModelCallListener,
): Promise<ModelCallResult> {
	let output = false;
	return generate(model, request, signal, (event) => {
		if (event.type === 'usage' || event.type === 'finish') return;
		if (!output) {
			output = true;
			listener.onFirstOutput();
		}
		if (event.type === 'text-delta') listener.onText(event.text);
		else if (event.type === 'reasoning-delta') listener.onReasoning(event.text);
	});
}
