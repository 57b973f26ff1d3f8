import type Anthropic from '@anthropic-ai/sdk';
import type { RawMessageStreamEvent, StopReason } from '@anthropic-ai/sdk/resources/messages';
import type { BackendSettings } from './backendSettings.js';
import { invalidResponse, type ErrorContext } from './errors.js';
import type { ClientFactory } from './lazyClient.js';
import { SdkModel } from './sdkModel.js';
import type { Usage } from '../events/runEvents.js';
import type { ChatRequest, FinishReason, ModelEvent } from './model.js';
import { presetFor } from './presets.js';
import { ProviderError } from './providerError.js';
import { toolCallFromText } from './toolArguments.js';
import { anthropicThinkingKey, toAnthropicRequest } from './toAnthropicRequest.js';

type Block =
	| { kind: 'text' }
	| { kind: 'thinking'; thinking: string; signature: string }
	| { kind: 'redacted'; data: string }
	| { kind: 'tool'; id: string; name: string; json: string; initial: unknown; call: number };

/** `type: claude` — Anthropic Messages, streamed, with prompt caching and thinking echo. */
export class AnthropicModel extends SdkModel<Anthropic> {
	constructor(
		settings: BackendSettings,
		options: { keyVariable?: string; client?: ClientFactory<Anthropic> } = {},
	) {
		const keyVariable = options.keyVariable ?? 'ANTHROPIC_API_KEY';
		super(settings, keyVariable, options.client ?? (() => createAnthropicClient(settings, keyVariable)));
	}

	protected async *run(
		request: ChatRequest,
		signal: AbortSignal,
		ctx: ErrorContext,
	): AsyncGenerator<ModelEvent> {
		const client = await this.client();
		const stream = await client.messages.create(toAnthropicRequest(this.settings, request), { signal });
		const blocks = new Map<number, Block>();
		const thinking: unknown[] = [];
		let usage: Usage = { inputTokens: 0, outputTokens: 0 };
		let stopReason: StopReason | null = null;
		let sawCall = false;
		let calls = 0;
		for await (const event of stream as AsyncIterable<RawMessageStreamEvent>) {
			switch (event.type) {
				case 'message_start':
					// Input tokens (cache reads and writes too) are billed from here: report them at once,
					// so a call aborted mid-stream still counts them. The final usage event supersedes this one.
					usage = mergeUsage(usage, event.message.usage);
					yield { type: 'usage', usage };
					break;
				case 'content_block_start': {
					const block = event.content_block;
					if (block.type === 'tool_use') {
						blocks.set(event.index, {
							kind: 'tool',
							id: block.id,
							name: block.name,
							json: '',
							initial: block.input,
							call: calls,
						});
						yield { type: 'tool-call-delta', index: calls++ };
					} else if (block.type === 'thinking') {
						blocks.set(event.index, {
							kind: 'thinking',
							thinking: block.thinking ?? '',
							signature: block.signature ?? '',
						});
					} else if (block.type === 'redacted_thinking') {
						blocks.set(event.index, { kind: 'redacted', data: block.data });
					} else if (block.type === 'text') {
						blocks.set(event.index, { kind: 'text' });
						if (block.text) yield { type: 'text-delta', text: block.text };
					}
					break;
				}
				case 'content_block_delta': {
					const block = blocks.get(event.index);
					const delta = event.delta;
					if (delta.type === 'text_delta') {
						if (delta.text) yield { type: 'text-delta', text: delta.text };
					} else if (delta.type === 'thinking_delta' && block?.kind === 'thinking') {
						block.thinking += delta.thinking;
						if (delta.thinking) yield { type: 'reasoning-delta', text: delta.thinking };
					} else if (delta.type === 'signature_delta' && block?.kind === 'thinking') {
						block.signature = delta.signature;
					} else if (delta.type === 'input_json_delta' && block?.kind === 'tool') {
						block.json += delta.partial_json;
						if (delta.partial_json) yield { type: 'tool-call-delta', index: block.call };
					}
					break;
				}
				case 'content_block_stop': {
					const block = blocks.get(event.index);
					if (block?.kind === 'tool') {
						sawCall = true;
						const raw = block.json || JSON.stringify(block.initial ?? {});
						yield { type: 'tool-call', call: toolCallFromText(block.id, block.name, raw) };
					} else if (block?.kind === 'thinking') {
						thinking.push({ type: 'thinking', thinking: block.thinking, signature: block.signature });
					} else if (block?.kind === 'redacted') {
						thinking.push({ type: 'redacted_thinking', data: block.data });
					}
					break;
				}
				case 'message_delta':
					stopReason = event.delta.stop_reason ?? stopReason;
					usage = mergeUsage(usage, event.usage);
					break;
				case 'message_stop':
					yield { type: 'usage', usage };
					yield {
						type: 'finish',
						reason: mapAnthropicStop(stopReason, sawCall),
						...(thinking.length ? { providerData: { [anthropicThinkingKey]: thinking } } : {}),
					};
					return;
			}
		}
		throw invalidResponse(ctx, 'stream ended before message_stop');
	}
}

async function createAnthropicClient(settings: BackendSettings, keyVariable: string): Promise<Anthropic> {
	if (!settings.apiKey) {
		throw new ProviderError({
			provider: settings.type,
			kind: 'auth',
			retryable: false,
			message: `${keyVariable} is not set`,
		});
	}
	const sdk = await import('@anthropic-ai/sdk');
	// Everything explicit: the SDK would otherwise read ANTHROPIC_BASE_URL / ANTHROPIC_AUTH_TOKEN.
	return new sdk.Anthropic({
		apiKey: settings.apiKey,
		baseURL: settings.baseUrl ?? presetFor('claude')?.baseUrl,
		maxRetries: 0,
		logLevel: 'off',
	});
}

interface AnthropicUsageLike {
	input_tokens?: number | null;
	output_tokens?: number | null;
	cache_read_input_tokens?: number | null;
	cache_creation_input_tokens?: number | null;
}

/**
 * Anthropic's `input_tokens` excludes cache reads and writes; ours counts every prompt token,
 * with the cached and written parts as subsets (as OpenAI and Gemini report them).
 */
function mergeUsage(current: Usage, next: AnthropicUsageLike): Usage {
	const cached = next.cache_read_input_tokens ?? current.cachedInputTokens ?? 0;
	const written = next.cache_creation_input_tokens ?? current.cacheWriteTokens ?? 0;
	const uncached =
		next.input_tokens ??
		current.inputTokens - (current.cachedInputTokens ?? 0) - (current.cacheWriteTokens ?? 0);
	return {
		inputTokens: uncached + cached + written,
		outputTokens: next.output_tokens ?? current.outputTokens,
		cachedInputTokens: cached,
		cacheWriteTokens: written,
	};
}

export function mapAnthropicStop(reason: StopReason | null, sawCall: boolean): FinishReason {
	switch (reason) {
		case 'end_turn':
		case 'stop_sequence':
			return sawCall ? 'tool-calls' : 'stop';
		case 'tool_use':
			return 'tool-calls';
		case 'max_tokens':
		case 'model_context_window_exceeded':
			return 'length';
		case 'refusal':
			return 'content-filter';
		default:
			return sawCall ? 'tool-calls' : 'other';
	}
}
