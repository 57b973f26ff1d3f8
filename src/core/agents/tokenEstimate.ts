import type { ChatMessage, ChatRequest } from '../providers/spec/model.js';

/**
 * A conservative token count for a request, without a tokenizer (none is a dependency, and each
 * vendor's differs). OpenAI documents about 4 characters of English per token and Anthropic about
 * 3.5; code and JSON run nearer 3. Counting UTF-8 bytes / 3 therefore over-counts English and code,
 * and counts a non-Latin character (2–4 bytes) as about one token. The provider's own
 * `context-length` error stays the backstop where this under-counts (`ContextKeeper.rejected`).
 */
export const bytesPerToken = 3;

/** Per message: role markers and separators the wire formats add. */
const messageOverhead = 8;

/**
 * An attached image, whatever its bytes: Anthropic counts about 1,600 tokens for the largest image
 * it takes unresized, OpenAI's high detail about 1,100 for 1024×1024.
 */
const imageTokens = 2_000;

export function estimateTextTokens(text: string): number {
	return Math.ceil(Buffer.byteLength(text, 'utf8') / bytesPerToken);
}

export function estimateMessageTokens(message: ChatMessage): number {
	let tokens = messageOverhead + estimateTextTokens(message.content);
	if (message.role === 'user') tokens += (message.images?.length ?? 0) * imageTokens;
	if (message.role === 'assistant') {
		for (const call of message.toolCalls ?? []) {
			tokens += messageOverhead + estimateTextTokens(call.name + JSON.stringify(call.arguments));
		}
		// Opaque echoes (thinking blocks, thought signatures) travel with the message.
		if (message.providerData) tokens += estimateTextTokens(JSON.stringify(message.providerData));
	}
	if (message.role === 'tool') tokens += estimateTextTokens(message.toolName);
	return tokens;
}

/** The prompt tokens a request would use: system, tool definitions and every message. */
export function estimateRequestTokens(request: Pick<ChatRequest, 'system' | 'messages' | 'tools'>): number {
	return (
		estimateTextTokens(request.system) +
		request.tools.reduce((sum, tool) => sum + messageOverhead + estimateTextTokens(JSON.stringify(tool)), 0) +
		request.messages.reduce((sum, message) => sum + estimateMessageTokens(message), 0)
	);
}
