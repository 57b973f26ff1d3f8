import type { Usage } from '../../contract/runEvents.js';

/**
 * A call's usage as the run counts it. The adapters pass the server's JSON counts through
 * (`usage.prompt_tokens ?? 0`), so a hostile or broken server can report a negative, NaN or text
 * count: one such call would offset every other member's spend (no cost or token cap of the run,
 * nor the editor's day cap, would be reached) or turn the token sum into text. Each count is a
 * finite number of at least 0, else 0.
 */
export function countedUsage(usage: Usage): Usage {
	const count = (value: unknown): number =>
		typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
	const optional = (key: 'reasoningTokens' | 'cachedInputTokens' | 'cacheWriteTokens' | 'webSearchCalls') =>
		usage[key] === undefined ? {} : { [key]: count(usage[key]) };
	return {
		inputTokens: count(usage.inputTokens),
		outputTokens: count(usage.outputTokens),
		...optional('reasoningTokens'),
		...optional('cachedInputTokens'),
		...optional('cacheWriteTokens'),
		...optional('webSearchCalls'),
	};
}
