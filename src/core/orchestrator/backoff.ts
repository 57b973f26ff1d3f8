/**
 * Delay before retry number `failures` (1-based): exponential with full jitter in [exp/2, exp],
 * capped at `maxMs`; a provider's retry-after always wins, because retrying earlier only fails again.
 */
export function backoffDelay(
	failures: number,
	baseMs: number,
	maxMs: number,
	retryAfterMs?: number,
	random: () => number = Math.random,
): number {
	if (retryAfterMs !== undefined && retryAfterMs >= 0) return retryAfterMs;
	const exp = Math.min(maxMs, baseMs * 2 ** Math.max(0, failures - 1));
	return Math.round(exp / 2 + (random() * exp) / 2);
}
