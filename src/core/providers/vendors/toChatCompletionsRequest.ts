import type {
	ChatCompletionCreateParamsStreaming,
	ChatCompletionMessageParam,
	ChatCompletionTool,
} from 'openai/resources/chat/completions';
import type { BackendSettings } from '../spec/backendSettings.js';
import type { ChatRequest, ToolDefinition } from '../spec/model.js';
import { passThroughOptions } from '../shared/passThrough.js';

/** Our request → a streamed Chat Completions call (OpenAI-compatible servers and presets). */
export function toChatCompletionsRequest(
	settings: BackendSettings,
	request: ChatRequest,
): ChatCompletionCreateParamsStreaming {
	const params: ChatCompletionCreateParamsStreaming = {
		model: settings.model,
		messages: toChatMessages(request),
		stream: true,
		stream_options: { include_usage: true },
		...(request.tools.length ? { tools: request.tools.map(toChatTool) } : {}),
	};
	// Other OpenAI-compatible servers may reject a parameter they do not know.
	if (request.cacheKey && isOpenAIHost(settings)) params.prompt_cache_key = request.cacheKey;
	// The config layer turns web search on only for OpenRouter, whose web plugin runs the search.
	const webPlugin = settings.providerTools?.webSearch && !request.withoutProviderTools;
	const temperature = request.temperature ?? settings.temperature;
	const maxTokens = request.maxOutputTokens ?? settings.maxTokens;
	if (temperature !== undefined) params.temperature = temperature;
	if (maxTokens !== undefined) {
		// OpenAI's own reasoning models (also on Azure) reject `max_tokens`; other servers expect it.
		if (usesMaxCompletionTokens(settings)) params.max_completion_tokens = maxTokens;
		else params.max_tokens = maxTokens;
	}
	return {
		...params,
		...(webPlugin ? { plugins: [{ id: 'web' }] } : {}),
		...passThroughOptions(settings, request),
		stream: true,
	} as ChatCompletionCreateParamsStreaming;
}

function usesMaxCompletionTokens(settings: BackendSettings): boolean {
	return settings.type === 'azure_openai' || isOpenAIHost(settings);
}

function isOpenAIHost(settings: BackendSettings): boolean {
	return /(^|\.)openai\.com$/.test(hostOf(settings.baseUrl));
}

function hostOf(url: string | undefined): string {
	try {
		return url ? new URL(url).hostname : '';
	} catch {
		return '';
	}
}

export function toChatTool(tool: ToolDefinition): ChatCompletionTool {
	return {
		type: 'function',
		function: { name: tool.name, description: tool.description, parameters: tool.parameters },
	};
}

export function toChatMessages(request: ChatRequest): ChatCompletionMessageParam[] {
	const messages: ChatCompletionMessageParam[] = [];
	if (request.system) messages.push({ role: 'system', content: request.system });
	for (const message of request.messages) {
		switch (message.role) {
			case 'user': {
				const images = (message.images ?? []).map((image) => ({
					type: 'image_url' as const,
					image_url: { url: `data:${image.mediaType};base64,${image.base64}` },
				}));
				messages.push({
					role: 'user',
					content: images.length ? [{ type: 'text', text: message.content }, ...images] : message.content,
				});
				break;
			}
			case 'assistant': {
				const calls = message.toolCalls ?? [];
				if (!calls.length) {
					messages.push({ role: 'assistant', content: message.content });
					break;
				}
				messages.push({
					role: 'assistant',
					content: message.content || null,
					tool_calls: calls.map((call) => ({
						id: call.id,
						type: 'function' as const,
						// Some servers re-parse history arguments; invalid JSON would make the whole call fail.
						function: { name: call.name, arguments: call.parseError ? '{}' : JSON.stringify(call.arguments) },
					})),
				});
				break;
			}
			case 'tool':
				messages.push({ role: 'tool', tool_call_id: message.toolCallId, content: message.content });
				break;
		}
	}
	return messages;
}
