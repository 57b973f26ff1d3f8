import type {
	ResponseCreateParamsStreaming,
	ResponseIncludable,
	ResponseInputItem,
	FunctionTool,
	Tool,
} from 'openai/resources/responses/responses';
import type { BackendSettings } from '../spec/backendSettings.js';
import type { ChatRequest, ToolDefinition } from '../spec/model.js';
import { passThroughOptions } from '../shared/passThrough.js';
import { argumentsText } from '../shared/toolArguments.js';

/** Key under which an assistant message's `providerData` carries Responses reasoning items (and, in their order, its web_search_call / code_interpreter_call items). */
export const responsesReasoningKey = 'openaiReasoningItems';

/**
 * Our request → a stateless Responses API call (`store: false`, full input every call, as
 * MassGen does). Reasoning items come back encrypted so tool-call turns keep their reasoning.
 */
export function toResponsesRequest(
	settings: BackendSettings,
	request: ChatRequest,
): ResponseCreateParamsStreaming {
	const extra = passThroughOptions(settings, request);
	const reasoningModel = /^(o\d|gpt-5|codex)/.test(settings.model) || extra['reasoning'] !== undefined;
	const native = request.withoutProviderTools ? undefined : settings.providerTools;
	const include: ResponseIncludable[] = [
		...(reasoningModel ? (['reasoning.encrypted_content'] as const) : []),
		// Without these the items carry no sources and no code output.
		...(native?.webSearch ? (['web_search_call.action.sources'] as const) : []),
		...(native?.codeExecution ? (['code_interpreter_call.outputs'] as const) : []),
	];
	const tools: Tool[] = [
		...request.tools.map(toResponsesTool),
		...(native?.webSearch ? [{ type: 'web_search' as const }] : []),
		...(native?.codeExecution
			? [{ type: 'code_interpreter' as const, container: { type: 'auto' as const } }]
			: []),
	];
	const params: ResponseCreateParamsStreaming = {
		model: settings.model,
		instructions: request.system || null,
		input: toResponsesInput(request),
		stream: true,
		store: false,
		...(include.length ? { include } : {}),
		...(tools.length ? { tools } : {}),
		...(request.cacheKey ? { prompt_cache_key: request.cacheKey } : {}),
	};
	const temperature = request.temperature ?? settings.temperature;
	const maxTokens = request.maxOutputTokens ?? settings.maxTokens;
	// OpenAI's reasoning models reject any temperature (a 400 would kill the agent).
	if (temperature !== undefined && !/^(o\d|gpt-5(?!-chat))/.test(settings.model)) {
		params.temperature = temperature;
	}
	if (maxTokens !== undefined) params.max_output_tokens = maxTokens;
	return { ...params, ...extra, stream: true } as ResponseCreateParamsStreaming;
}

export function toResponsesTool(tool: ToolDefinition): FunctionTool {
	return {
		type: 'function',
		name: tool.name,
		description: tool.description,
		parameters: tool.parameters,
		strict: false,
	};
}

export function toResponsesInput(request: ChatRequest): ResponseInputItem[] {
	const items: ResponseInputItem[] = [];
	for (const message of request.messages) {
		switch (message.role) {
			case 'user': {
				const images = (message.images ?? []).map((image) => ({
					type: 'input_image' as const,
					image_url: `data:${image.mediaType};base64,${image.base64}`,
					detail: 'auto' as const,
				}));
				items.push({
					role: 'user',
					content: images.length
						? [{ type: 'input_text', text: message.content }, ...images]
						: message.content,
				});
				break;
			}
			case 'assistant': {
				const reasoning = message.providerData?.[responsesReasoningKey];
				if (Array.isArray(reasoning)) items.push(...(reasoning as ResponseInputItem[]));
				if (message.content) items.push({ role: 'assistant', content: message.content });
				for (const call of message.toolCalls ?? []) {
					items.push({
						type: 'function_call',
						call_id: call.id,
						name: call.name,
						arguments: argumentsText(call),
					});
				}
				break;
			}
			case 'tool':
				items.push({ type: 'function_call_output', call_id: message.toolCallId, output: message.content });
				break;
		}
	}
	return items;
}
