import type Anthropic from '@anthropic-ai/sdk';
import type { RawMessageStreamEvent, StopReason } from '@anthropic-ai/sdk/resources/messages';
import type { BackendSettings } from '../spec/backendSettings.js';
import { invalidResponse, type ErrorContext } from '../shared/errors.js';
import type { ClientFactory } from '../shared/lazyClient.js';
import { SdkModel } from '../shared/sdkModel.js';
import type { Usage } from '../../../contract/runEvents.js';
import type { ChatRequest, FinishReason, ModelEvent } from '../spec/model.js';
import { presetFor } from '../spec/presets.js';
import { ProviderError } from '../spec/providerError.js';
import { toolCallFromText } from '../shared/toolArguments.js';
import {
	anthropicBetas,
	anthropicServerBlocksKey,
	anthropicThinkingKey,
	toAnthropicRequest,
} from './toAnthropicRequest.js';
import { addAnthropicCitation, anthropicResultTypes, anthropicToolUse } from './anthropicProviderTools.js';
import { CitationList } from '../shared/citations.js';

type Block =
	| { kind: 'text' }
	| { kind: 'thinking'; thinking: string; signature: string }
	| { kind: 'redacted'; data: string }
	| { kind: 'tool'; id: string; name: string; json: string; initial: unknown; call: number }
	| { kind: 'server'; id: string; name: string; json: string; initial: unknown }
	| { kind: 'result'; block: Record<string, unknown> };

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
		const betas = anthropicBetas(this.settings, request);
		const headers = betas.length ? { 'anthropic-beta': betas.join(',') } : undefined;
		const params = toAnthropicRequest(this.settings, request);
		const stream = await client.messages.create(params, { signal, ...(headers ? { headers } : {}) });
		const blocks = new Map<number, Block>();
		const thinking: unknown[] = [];
		const server: Record<string, unknown>[] = [];
		const serverInputs = new Map<string, Record<string, unknown>>();
		const citations = new CitationList();
		let sawText = false;
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
						sawText ||= Boolean(block.text);
						if (block.text) yield { type: 'text-delta', text: block.text };
					} else if (block.type === 'server_tool_use') {
						blocks.set(event.index, {
							kind: 'server',
							id: block.id,
							name: block.name,
							json: '',
							initial: block.input,
						});
					} else if (anthropicResultTypes.has(block.type)) {
						blocks.set(event.index, { kind: 'result', block: { ...block } });
					}
					break;
				}
				case 'content_block_delta': {
					const block = blocks.get(event.index);
					const delta = event.delta;
					if (delta.type === 'text_delta') {
						sawText ||= Boolean(delta.text);
						if (delta.text) yield { type: 'text-delta', text: delta.text };
					} else if (delta.type === 'citations_delta') {
						addAnthropicCitation(citations, delta.citation);
					} else if (delta.type === 'thinking_delta' && block?.kind === 'thinking') {
						block.thinking += delta.thinking;
						if (delta.thinking) yield { type: 'reasoning-delta', text: delta.thinking };
					} else if (delta.type === 'signature_delta' && block?.kind === 'thinking') {
						block.signature = delta.signature;
					} else if (delta.type === 'input_json_delta' && block?.kind === 'server') {
						block.json += delta.partial_json;
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
					} else if (block?.kind === 'server') {
						const input = parseInput(block.json, block.initial);
						serverInputs.set(block.id, input);
						server.push({ type: 'server_tool_use', id: block.id, name: block.name, input });
					} else if (block?.kind === 'result') {
						server.push(block.block);
						const input = serverInputs.get(String(block.block['tool_use_id'])) ?? {};
						yield { type: 'provider-tool', use: anthropicToolUse(input, block.block) };
					}
					break;
				}
				case 'message_delta': {
					stopReason = event.delta.stop_reason ?? stopReason;
					usage = mergeUsage(usage, event.usage);
					const searches = event.usage.server_tool_use?.web_search_requests;
					if (searches) usage = { ...usage, webSearchCalls: searches };
					break;
				}
				case 'message_stop': {
					const sources = sawText ? citations.block() : '';
					if (sources) yield { type: 'text-delta', text: sources };
					yield { type: 'usage', usage };
					const providerData = {
						...(thinking.length ? { [anthropicThinkingKey]: thinking } : {}),
						...(server.length ? { [anthropicServerBlocksKey]: server } : {}),
					};
					yield {
						type: 'finish',
						reason: mapAnthropicStop(stopReason, sawCall),
						...(Object.keys(providerData).length ? { providerData } : {}),
					};
					return;
				}
			}
		}
		throw invalidResponse(ctx, 'stream ended before message_stop');
	}
}

/** A server tool's input: its streamed JSON, else the start block's (never a crash on bad JSON). */
function parseInput(json: string, initial: unknown): Record<string, unknown> {
	try {
		const value: unknown = json ? JSON.parse(json) : initial;
		return value && typeof value === 'object' && !Array.isArray(value)
			? (value as Record<string, unknown>)
			: {};
	} catch {
		return {};
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
