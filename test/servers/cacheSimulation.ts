import type { LoopbackProtocol, PromptSegment } from './types.js';

/** Input tokens of a request, with the part a provider would have served from its prompt cache. */
export interface CachedUsage {
	readonly input: number;
	readonly cachedInput: number;
	readonly cacheWrite: number;
}

/** Rough token count: 4 characters a token, as providers' own rule of thumb. */
const tokens = (chars: number) => Math.ceil(chars / 4);
/** OpenAI and Gemini cache only prompts of at least this many tokens; OpenAI in 128-token steps. */
const minimumTokens = 1024;
const openAiStep = 128;

/**
 * A rough simulation of each provider's prompt caching, from the requests the same model sent before:
 * - OpenAI (Responses, Chat Completions) and Gemini cache implicitly: the prefix this request shares
 *   with an earlier one counts as cached once it reaches 1,024 tokens (OpenAI rounds down to 128);
 * - Anthropic caches only at `cache_control` breakpoints: a prefix ending at a breakpoint an earlier
 *   request wrote is read from the cache; the rest up to this request's last breakpoint is written.
 * Real caches also depend on time-to-live, routing (`prompt_cache_key`) and exact tokenisation.
 */
export function simulateCache(
	protocol: LoopbackProtocol,
	segments: readonly PromptSegment[],
	earlier: readonly (readonly PromptSegment[])[],
): CachedUsage {
	const ends = prefixEnds(segments);
	const total = ends.at(-1) ?? 0;
	const input = tokens(total);
	if (protocol === 'anthropic') {
		// A cache lookup happens only up to this request's own last breakpoint.
		const last = segments.map((s) => s.breakpoint).lastIndexOf(true);
		let cachedChars = 0;
		for (const previous of earlier) {
			const shared = Math.min(sharedSegments(segments, previous), last + 1);
			for (let i = 0; i < shared; i++) {
				if (previous[i]!.breakpoint) cachedChars = Math.max(cachedChars, ends[i]!);
			}
		}
		const writeChars = last >= 0 ? Math.max(0, ends[last]! - cachedChars) : 0;
		return { input, cachedInput: tokens(cachedChars), cacheWrite: tokens(writeChars) };
	}
	const shared = Math.max(0, ...earlier.map((previous) => sharedSegments(segments, previous)));
	const prefix = shared > 0 ? tokens(ends[shared - 1]!) : 0;
	if (prefix < minimumTokens) return { input, cachedInput: 0, cacheWrite: 0 };
	const cachedInput = protocol === 'gemini' ? prefix : prefix - (prefix % openAiStep);
	return { input, cachedInput, cacheWrite: 0 };
}

function sharedSegments(a: readonly PromptSegment[], b: readonly PromptSegment[]): number {
	let i = 0;
	while (i < a.length && i < b.length && a[i]!.text === b[i]!.text) i++;
	return i;
}

/** Character offset at the end of each segment. */
function prefixEnds(segments: readonly PromptSegment[]): number[] {
	let sum = 0;
	return segments.map((segment) => (sum += segment.text.length));
}
