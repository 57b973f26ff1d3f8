import type {
	ContentBlockParam,
	MessageCreateParamsStreaming,
	MessageParam,
	Tool,
	ToolUnion,
} from '@anthropic-ai/sdk/resources/messages';
import type { BackendSettings } from '../spec/backendSettings.js';
import type { ChatRequest, ToolDefinition } from '../spec/model.js';
import { passThroughOptions } from '../shared/passThrough.js';

/** Key under which an assistant message's `providerData` carries Anthropic thinking blocks. */
export const anthropicThinkingKey = 'anthropicThinkingBlocks';
/** Key of its server tool blocks (`server_tool_use` and each `*_tool_result`), in stream order. */
export const anthropicServerBlocksKey = 'anthropicServerToolBlocks';

const defaultMaxTokens = 8192;
const ephemeral = { type: 'ephemeral' } as const;

/**
 * Our request → a streamed Messages call. Prompt caching: Anthropic caches prefixes in the order
 * tools → system → messages, ending at blocks marked `cache_control` (at most 4). We mark the last
 * tool (the tools alone, shared by agents whose system prompts differ), the system prompt, the last
 * block of the stable prefix (`request.stablePrefixMessages`, re-read by every later call of the
 * agent), and the last block of a conversation that goes past it (re-read by the turn's next call).
 */
export function toAnthropicRequest(
	settings: BackendSettings,
	request: ChatRequest,
): MessageCreateParamsStreaming {
	const extra = passThroughOptions(settings, request);
	const thinking = extra['thinking'] as { type?: string; budget_tokens?: number } | undefined;
	const thinkingOn = thinking?.type === 'enabled' || thinking?.type === 'adaptive';
	let maxTokens = request.maxOutputTokens ?? settings.maxTokens ?? defaultMaxTokens;
	if (thinking?.budget_tokens !== undefined && maxTokens <= thinking.budget_tokens) {
		maxTokens = thinking.budget_tokens + defaultMaxTokens;
	}
	const params: MessageCreateParamsStreaming = {
		model: settings.model,
		max_tokens: maxTokens,
		messages: toAnthropicMessages(request),
		stream: true,
		...(request.system ? { system: [{ type: 'text', text: request.system, cache_control: ephemeral }] } : {}),
	};
	const tools = [...request.tools.map(toAnthropicTool), ...anthropicServerTools(settings, request)];
	if (tools.length) params.tools = markLastCached(tools);
	const temperature = request.temperature ?? settings.temperature;
	// Not in SDK 1.x's types, still accepted by the API for the models that support it;
	// extended thinking accepts no temperature other than the default.
	const sampling = temperature !== undefined && !thinkingOn ? { temperature } : {};
	return { ...params, ...sampling, ...extra, stream: true } as MessageCreateParamsStreaming;
}

function markLastCached(tools: ToolUnion[]): ToolUnion[] {
	tools[tools.length - 1] = { ...tools.at(-1)!, cache_control: ephemeral };
	return tools;
}

/** Beta features the server tools need, for the `anthropic-beta` header (web search itself is GA). */
export function anthropicBetas(settings: BackendSettings, request: ChatRequest): string[] {
	const native = request.withoutProviderTools ? undefined : settings.providerTools;
	return [
		...(native?.webSearch ? ['web-fetch-2025-09-10'] : []),
		...(native?.codeExecution ? ['code-execution-2025-08-25'] : []),
	];
}

/** Anthropic's server tools: web search with web fetch (pages the search or the user named), and code execution. */
function anthropicServerTools(settings: BackendSettings, request: ChatRequest): ToolUnion[] {
	const native = request.withoutProviderTools ? undefined : settings.providerTools;
	return [
		...(native?.webSearch
			? [
					{ type: 'web_search_20250305' as const, name: 'web_search' as const },
					{ type: 'web_fetch_20250910' as const, name: 'web_fetch' as const },
				]
			: []),
		...(native?.codeExecution
			? [{ type: 'code_execution_20250825' as const, name: 'code_execution' as const }]
			: []),
	];
}

export function toAnthropicTool(tool: ToolDefinition): Tool {
	return {
		name: tool.name,
		description: tool.description,
		input_schema: tool.parameters as Tool['input_schema'],
	};
}

/**
 * Messages in Anthropic's shape: tool results become `tool_result` blocks in a user turn,
 * consecutive same-role turns are merged (the API requires alternation), empty text is dropped.
 */
export function toAnthropicMessages(request: ChatRequest): MessageParam[] {
	const out: { role: 'user' | 'assistant'; content: ContentBlockParam[] }[] = [];
	const prefix = request.stablePrefixMessages ?? 0;
	let prefixBlock: ContentBlockParam | undefined;
	let lastBlock: ContentBlockParam | undefined;
	request.messages.forEach((message, index) => {
		const blocks: ContentBlockParam[] = [];
		let role: 'user' | 'assistant' = 'user';
		switch (message.role) {
			case 'user':
				// Images first, as Anthropic advises; the text after them carries the cache mark.
				for (const image of message.images ?? []) {
					blocks.push({
						type: 'image',
						source: { type: 'base64', media_type: image.mediaType, data: image.base64 },
					});
				}
				if (message.content) blocks.push({ type: 'text', text: message.content });
				break;
			case 'assistant': {
				role = 'assistant';
				const thinking = message.providerData?.[anthropicThinkingKey];
				if (Array.isArray(thinking)) blocks.push(...(thinking as ContentBlockParam[]));
				// Server tool calls and their results go back as received, or the next call is refused.
				const server = message.providerData?.[anthropicServerBlocksKey];
				if (Array.isArray(server)) blocks.push(...(server as ContentBlockParam[]));
				if (message.content) blocks.push({ type: 'text', text: message.content });
				for (const call of message.toolCalls ?? []) {
					blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: call.arguments });
				}
				break;
			}
			case 'tool':
				blocks.push({
					type: 'tool_result',
					tool_use_id: message.toolCallId,
					content: message.content,
					...(message.isError ? { is_error: true } : {}),
				});
				break;
		}
		if (!blocks.length) return;
		if (index < prefix) prefixBlock = blocks.at(-1);
		lastBlock = blocks.at(-1);
		const last = out.at(-1);
		if (last && last.role === role) last.content.push(...blocks);
		else out.push({ role, content: blocks });
	});
	markCached(prefixBlock);
	markCached(lastBlock);
	return out;
}

/** Thinking blocks cannot carry a breakpoint. */
function markCached(block: ContentBlockParam | undefined): void {
	if (block && block.type !== 'thinking' && block.type !== 'redacted_thinking') {
		(block as { cache_control?: unknown }).cache_control = ephemeral;
	}
}
