import type { ChatModel, ChatRequest, FinishReason, ToolCall, Usage } from '../providers/model.js';

export interface ModelCallResult {
	readonly text: string;
	readonly toolCalls: readonly ToolCall[];
	readonly usage: Usage | undefined;
	readonly finishReason: FinishReason | undefined;
	readonly providerData: Record<string, unknown> | undefined;
}

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
	let text = '';
	let usage: Usage | undefined;
	let finishReason: FinishReason | undefined;
	let providerData: Record<string, unknown> | undefined;
	let output = false;
	const toolCalls: ToolCall[] = [];
	const sawOutput = () => {
		if (output) return;
		output = true;
		listener.onFirstOutput();
	};
	for await (const event of model.stream(request, signal)) {
		switch (event.type) {
			case 'text-delta':
				sawOutput();
				text += event.text;
				listener.onText(event.text);
				break;
			case 'reasoning-delta':
				sawOutput();
				listener.onReasoning(event.text);
				break;
			case 'tool-call':
				sawOutput();
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
	return { text, toolCalls, usage, finishReason, providerData };
}
