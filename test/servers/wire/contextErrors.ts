import type { LoopbackProtocol } from '../types.js';

/** Which OpenAI-compatible server answers on the Chat Completions protocol. */
export type ChatServerFlavor = 'openai' | 'vllm' | 'llamacpp';

/**
 * Each API's own answer to a prompt longer than its context window, as the vendors send it:
 * OpenAI (Responses and Chat Completions) a 400 `invalid_request_error` with code
 * `context_length_exceeded`; Anthropic a 400 `invalid_request_error` "prompt is too long: N tokens
 * > M maximum"; Gemini a 400 `INVALID_ARGUMENT` "The input token count (N) exceeds the maximum
 * number of tokens allowed (M)."; vLLM a 400 `BadRequestError` "This model's maximum context length
 * is M tokens…"; llama.cpp's server a 400 `exceed_context_size_error`.
 */
export function contextLengthError(
	protocol: LoopbackProtocol,
	promptTokens: number,
	maxTokens: number,
	flavor: ChatServerFlavor = 'openai',
): { status: number; body: unknown } {
	if (protocol === 'anthropic') {
		return {
			status: 400,
			body: {
				type: 'error',
				error: {
					type: 'invalid_request_error',
					message: `prompt is too long: ${promptTokens} tokens > ${maxTokens} maximum`,
				},
			},
		};
	}
	if (protocol === 'gemini') {
		const message = `The input token count (${promptTokens}) exceeds the maximum number of tokens allowed (${maxTokens}).`;
		return { status: 400, body: { error: { code: 400, message, status: 'INVALID_ARGUMENT' } } };
	}
	if (protocol === 'responses') {
		return {
			status: 400,
			body: {
				error: {
					message:
						'Your input exceeds the context window of this model. Please adjust your input and try again.',
					type: 'invalid_request_error',
					param: 'input',
					code: 'context_length_exceeded',
				},
			},
		};
	}
	if (flavor === 'llamacpp') {
		return {
			status: 400,
			body: {
				error: {
					code: 400,
					message: 'the request exceeds the available context size, try increasing it',
					type: 'exceed_context_size_error',
					n_prompt_tokens: promptTokens,
					n_ctx: maxTokens,
				},
			},
		};
	}
	if (flavor === 'vllm') {
		const message =
			`This model's maximum context length is ${maxTokens} tokens. However, you requested ${promptTokens} ` +
			`tokens (${promptTokens} in the messages, 0 in the completion). Please reduce the length of the messages or completion.`;
		return { status: 400, body: { error: { message, type: 'BadRequestError', param: null, code: 400 } } };
	}
	const message =
		`This model's maximum context length is ${maxTokens} tokens. However, your messages resulted in ` +
		`${promptTokens} tokens. Please reduce the length of the messages.`;
	return {
		status: 400,
		body: {
			error: { message, type: 'invalid_request_error', param: 'messages', code: 'context_length_exceeded' },
		},
	};
}
