import { createHash } from 'node:crypto';

/**
 * The prompt-cache key of one agent's calls in one run (OpenAI's `prompt_cache_key`): its calls
 * share a growing prefix, so routing them together lets the provider reuse it. Hashed, so the
 * provider sees neither the run id nor the config agent id.
 */
export function cacheKeyOf(runId: string, agentId: string): string {
	return `massgen-${createHash('sha256').update(`${runId}\0${agentId}`).digest('hex').slice(0, 24)}`;
}
