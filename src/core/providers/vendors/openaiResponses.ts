import type OpenAI from 'openai';
import type {
	Response,
	ResponseCreateParamsStreaming,
	ResponseOutputItem,
	ResponseStreamEvent,
	ResponseUsage,
} from 'openai/resources/responses/responses';
import type { BackendSettings } from '../spec/backendSettings.js';
import { fromStreamError, invalidResponse, type ErrorContext } from '../shared/errors.js';
import type { ClientFactory } from '../shared/lazyClient.js';
import { SdkModel } from '../shared/sdkModel.js';
import type { Usage } from '../../../contract/runEvents.js';
import type { ChatRequest, FinishReason, ModelEvent, ProviderToolUse } from '../spec/model.js';
import { CitationList } from '../shared/citations.js';
import { createOpenAIClient } from '../shared/openaiClient.js';
import { addCitation, responsesToolUse } from './responsesProviderTools.js';
import { toolCallFromText } from '../shared/toolArguments.js';
import { responsesReasoningKey, toResponsesRequest } from './toResponsesRequest.js';

/** `type: openai` — the OpenAI Responses API, streamed and stateless. */
export class OpenAIResponsesModel extends SdkModel<OpenAI> {
	constructor(
		settings: BackendSettings,
		options: { keyVariable?: string; client?: ClientFactory<OpenAI> } = {},
	) {
		const keyVariable = options.keyVariable ?? 'OPENAI_API_KEY';
		super(settings, keyVariable, options.client ?? (() => createOpenAIClient(settings, keyVariable)));
	}

	protected async *run(
		request: ChatRequest,
		signal: AbortSignal,
		ctx: ErrorContext,
	): AsyncGenerator<ModelEvent> {
		const client = await this.client();
		const stream = await client.responses.create(this.params(request), { signal });
		// Keyed by output_index; `index` is the call's position among this response's calls.
		const calls = new Map<number, { id: string; name: string; args: string; index: number }>();
		const reasoningItems: unknown[] = [];
		const citations = new CitationList();
		let sawText = false;
		let sawCall = false;
		let searches = 0;
		for await (const event of stream as AsyncIterable<ResponseStreamEvent>) {
			switch (event.type) {
				case 'response.output_text.delta':
				case 'response.refusal.delta':
					sawText ||= Boolean(event.delta);
					if (event.delta) yield { type: 'text-delta', text: event.delta };
					break;
				case 'response.output_text.annotation.added':
					addCitation(citations, event.annotation);
					break;
				case 'response.reasoning_summary_text.delta':
				case 'response.reasoning_text.delta':
					if (event.delta) yield { type: 'reasoning-delta', text: event.delta };
					break;
				case 'response.reasoning_summary_part.added':
					if (event.summary_index > 0) yield { type: 'reasoning-delta', text: '\n\n' };
					break;
				case 'response.output_item.added':
					if (event.item.type === 'function_call') {
						const { call_id, name, arguments: args } = event.item;
						calls.set(event.output_index, { id: call_id, name, args: args ?? '', index: calls.size });
						yield { type: 'tool-call-delta', index: calls.size - 1 };
					}
					break;
				case 'response.function_call_arguments.delta': {
					const call = calls.get(event.output_index);
					if (call) call.args += event.delta;
					if (call && event.delta) yield { type: 'tool-call-delta', index: call.index };
					break;
				}
				case 'response.output_item.done': {
					const item = event.item;
					if (item.type === 'function_call') {
						const partial = calls.get(event.output_index);
						const id = item.call_id || partial?.id || `call_${event.output_index}`;
						sawCall = true;
						yield {
							type: 'tool-call',
							call: toolCallFromText(
								id,
								item.name || partial?.name || '',
								item.arguments ?? partial?.args ?? '',
							),
						};
					} else if (item.type === 'reasoning' && item.encrypted_content) {
						reasoningItems.push(item);
					} else if (item.type === 'message') {
						for (const part of item.content) {
							if (part.type === 'output_text') part.annotations.forEach((a) => addCitation(citations, a));
						}
					} else {
						const use = this.toolUse(item);
						if (use?.kind === 'search') searches += 1;
						// Echoed in order with the reasoning items: a reasoning item sent back without the
						// item that followed it is refused.
						if (use && this.echoesToolItems) reasoningItems.push(item);
						if (use) yield { type: 'provider-tool', use };
					}
					break;
				}
				case 'response.completed':
				case 'response.incomplete': {
					const sources = sawText ? citations.block() : '';
					if (sources) yield { type: 'text-delta', text: sources };
					if (event.response.usage) {
						const usage = fromResponsesUsage(event.response.usage);
						yield { type: 'usage', usage: searches ? { ...usage, webSearchCalls: searches } : usage };
					}
					yield {
						type: 'finish',
						reason: finishReason(event.response, sawCall),
						...(reasoningItems.length ? { providerData: { [responsesReasoningKey]: reasoningItems } } : {}),
					};
					return;
				}
				case 'response.failed':
					throw fromStreamError(event.response.error?.code, event.response.error?.message, ctx);
				case 'error':
					throw fromStreamError(event.code ?? undefined, event.message, ctx);
				default:
					break;
			}
		}
		throw invalidResponse(ctx, 'stream ended before response.completed');
	}

	/** The request body (another vendor's Responses API adapts it: `XaiResponsesModel`). */
	protected params(request: ChatRequest): ResponseCreateParamsStreaming {
		return toResponsesRequest(this.settings, request);
	}

	/** A finished output item that is a provider-side tool's call, as the lane shows it. */
	protected toolUse(item: ResponseOutputItem): ProviderToolUse | undefined {
		return responsesToolUse(item);
	}

	/** Whether those items are sent back on later calls (OpenAI requires it after a reasoning item). */
	protected readonly echoesToolItems: boolean = true;
}

export function fromResponsesUsage(usage: ResponseUsage): Usage {
	const cacheWrite = usage.input_tokens_details?.cache_write_tokens;
	return {
		inputTokens: usage.input_tokens ?? 0,
		outputTokens: usage.output_tokens ?? 0,
		reasoningTokens: usage.output_tokens_details?.reasoning_tokens ?? 0,
		cachedInputTokens: usage.input_tokens_details?.cached_tokens ?? 0,
		...(cacheWrite ? { cacheWriteTokens: cacheWrite } : {}),
	};
}

function finishReason(response: Response, sawCall: boolean): FinishReason {
	if (response.status === 'incomplete') {
		const reason = response.incomplete_details?.reason;
		return reason === 'max_output_tokens'
			? 'length'
			: reason === 'content_filter'
				? 'content-filter'
				: 'other';
	}
	return sawCall ? 'tool-calls' : 'stop';
}
