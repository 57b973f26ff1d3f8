import type OpenAI from 'openai';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { CompletionUsage } from 'openai/resources/completions';
import type { BackendSettings } from '../spec/backendSettings.js';
import { invalidResponse, type ErrorContext } from '../shared/errors.js';
import type { ClientFactory } from '../shared/lazyClient.js';
import { SdkModel } from '../shared/sdkModel.js';
import type { Usage } from '../../../contract/runEvents.js';
import type { ChatRequest, FinishReason, ModelEvent } from '../spec/model.js';
import { CitationList } from '../shared/citations.js';
import { createOpenAIClient } from '../shared/openaiClient.js';
import { toolCallFromText } from '../shared/toolArguments.js';
import { toChatCompletionsRequest } from './toChatCompletionsRequest.js';

interface PartialCall {
	id: string;
	name: string;
	args: string;
}

/** `type: chatcompletion` and its presets (grok, groq, ollama, azure_openai, …) over Chat Completions. */
export class ChatCompletionsModel extends SdkModel<OpenAI> {
	constructor(
		settings: BackendSettings,
		options: { keyVariable?: string; client?: ClientFactory<OpenAI> } = {},
	) {
		const keyVariable = options.keyVariable;
		super(settings, keyVariable, options.client ?? (() => createOpenAIClient(settings, keyVariable)));
	}

	protected async *run(
		request: ChatRequest,
		signal: AbortSignal,
		ctx: ErrorContext,
	): AsyncGenerator<ModelEvent> {
		const client = await this.client();
		const stream = await client.chat.completions.create(toChatCompletionsRequest(this.settings, request), {
			signal,
		});
		const calls = new Map<number, PartialCall>();
		let finish: string | undefined;
		let usage: CompletionUsage | undefined;
		const citations = new CitationList();
		let sawText = false;
		for await (const chunk of stream as AsyncIterable<ChatCompletionChunk>) {
			if (chunk.usage) usage = chunk.usage;
			const choice = chunk.choices?.[0];
			if (!choice) continue;
			const delta = (choice.delta ?? {}) as ChatCompletionChunk.Choice.Delta & {
				reasoning_content?: unknown;
				reasoning?: unknown;
				annotations?: unknown;
			};
			// OpenRouter's web plugin cites pages as `url_citation` annotations on the message.
			for (const a of Array.isArray(delta.annotations) ? delta.annotations : []) {
				const cited = (a as { url_citation?: { url?: unknown; title?: unknown } }).url_citation;
				if (cited) citations.add(cited.title, cited.url);
			}
			const reasoning = delta.reasoning_content ?? delta.reasoning;
			if (typeof reasoning === 'string' && reasoning) yield { type: 'reasoning-delta', text: reasoning };
			sawText ||= Boolean(delta.content);
			if (delta.content) yield { type: 'text-delta', text: delta.content };
			for (const [position, part] of (delta.tool_calls ?? []).entries()) {
				const index = part.index ?? position;
				const call = calls.get(index) ?? { id: '', name: '', args: '' };
				if (part.id) call.id = part.id;
				if (part.function?.name) call.name += part.function.name;
				if (part.function?.arguments) call.args += part.function.arguments;
				calls.set(index, call);
				if (part.function?.name || part.function?.arguments) yield { type: 'tool-call-delta', index };
			}
			if (choice.finish_reason) finish = choice.finish_reason;
		}
		if (!finish) throw invalidResponse(ctx, 'stream ended before a finish_reason');
		const sources = sawText ? citations.block() : '';
		if (sources) yield { type: 'text-delta', text: sources };
		const ordered = [...calls.entries()].sort(([a], [b]) => a - b);
		for (const [index, call] of ordered) {
			yield { type: 'tool-call', call: toolCallFromText(call.id || `call_${index}`, call.name, call.args) };
		}
		if (usage) yield { type: 'usage', usage: fromChatUsage(usage) };
		yield { type: 'finish', reason: mapChatFinish(finish, ordered.length > 0) };
	}
}

export function fromChatUsage(usage: CompletionUsage): Usage {
	return {
		inputTokens: usage.prompt_tokens ?? 0,
		outputTokens: usage.completion_tokens ?? 0,
		reasoningTokens: usage.completion_tokens_details?.reasoning_tokens ?? 0,
		cachedInputTokens: usage.prompt_tokens_details?.cached_tokens ?? 0,
	};
}

/** Some servers (older Ollama, vLLM) report `stop` even when they returned tool calls. */
export function mapChatFinish(reason: string, hasCalls: boolean): FinishReason {
	if (hasCalls) return 'tool-calls';
	switch (reason) {
		case 'stop':
			return 'stop';
		case 'length':
			return 'length';
		case 'content_filter':
			return 'content-filter';
		case 'tool_calls':
		case 'function_call':
			return 'tool-calls';
		default:
			return 'other';
	}
}
