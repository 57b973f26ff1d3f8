/**
 * What `massgen serve` reads and writes on the OpenAI Chat Completions wire: the request (checked
 * with zod; text content only), error bodies in OpenAI's shape, the response and its stream chunks.
 */
import { z } from 'zod';
import type { ConversationMessage } from '../../core/sessions/conversationTurns.js';
import type { TeamCallUsage } from '../headless/teamCall.js';

const textPart = z.object({ type: z.literal('text'), text: z.string() });

const message = z.object({
	// `developer` is what newer clients call the system prompt.
	role: z.enum(['system', 'developer', 'user', 'assistant']),
	content: z
		.union([z.string(), z.array(textPart), z.null()], {
			error: 'a string or text parts (images and files are not taken)',
		})
		.optional(),
});

export const chatRequestSchema = z.object({
	model: z.string().min(1),
	messages: z.array(message).min(1),
	stream: z.boolean().optional(),
	stream_options: z.object({ include_usage: z.boolean().optional() }).nullish(),
});

export type ChatRequest = z.infer<typeof chatRequestSchema>;

/** The messages as the conversation step reads them (parts joined, `developer` as `system`). */
export function conversationOf(request: ChatRequest): ConversationMessage[] {
	return request.messages.map((m) => ({
		role: m.role === 'developer' ? 'system' : m.role,
		text: typeof m.content === 'string' ? m.content : (m.content ?? []).map((part) => part.text).join('\n'),
	}));
}

/** The first thing wrong with a request body, in one line (zod's path and message). */
export function requestProblem(error: z.ZodError): string {
	const issue = error.issues[0];
	if (!issue) return 'the request is not a chat completion request';
	const where = issue.path.length ? issue.path.join('.') : 'body';
	return `${where}: ${issue.message}`;
}

export type ErrorType =
	| 'invalid_request_error'
	| 'authentication_error'
	| 'permission_error'
	| 'not_found_error'
	| 'rate_limit_error'
	| 'server_error';

/** OpenAI's error body: `{ error: { message, type, param, code } }`. */
export function errorBody(message: string, type: ErrorType, code: string | null = null) {
	return { error: { message, type, param: null, code } };
}

/** The usage block of a response and of the last stream chunk. */
export function usageBlock(usage: TeamCallUsage) {
	return {
		prompt_tokens: usage.inputTokens,
		completion_tokens: usage.outputTokens,
		total_tokens: usage.inputTokens + usage.outputTokens,
		prompt_tokens_details: { cached_tokens: usage.cachedInputTokens },
	};
}

export interface CompletionIds {
	/** `chatcmpl-<run id>`. */
	readonly id: string;
	readonly model: string;
	/** Unix seconds. */
	readonly created: number;
}

/** A chunk of a streamed completion (`delta` only; `choices: []` with `usage` at the end). */
export function chunk(
	ids: CompletionIds,
	delta: { role?: 'assistant'; content?: string } | null,
	finishReason: 'stop' | 'length' | null = null,
	extra: Record<string, unknown> = {},
) {
	return {
		id: ids.id,
		object: 'chat.completion.chunk',
		created: ids.created,
		model: ids.model,
		choices: delta === null ? [] : [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
		...extra,
	};
}

/** A whole completion. */
export function completion(
	ids: CompletionIds,
	content: string,
	finishReason: 'stop' | 'length',
	usage: TeamCallUsage,
	extra: Record<string, unknown>,
) {
	return {
		id: ids.id,
		object: 'chat.completion',
		created: ids.created,
		model: ids.model,
		choices: [
			{
				index: 0,
				message: { role: 'assistant', content, refusal: null },
				logprobs: null,
				finish_reason: finishReason,
			},
		],
		usage: usageBlock(usage),
		...extra,
	};
}
