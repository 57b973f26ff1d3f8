import { vi } from 'vitest';

/**
 * Polls `condition` until it holds; past `timeoutMs` it fails naming `what` (a hang then says what it
 * waited for, under the test's own timeout). For outside processes and files the test cannot await.
 */
export async function waitFor(
	condition: () => boolean | Promise<boolean>,
	what: string,
	{ timeoutMs = 15_000, intervalMs = 20 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<void> {
	await vi.waitFor(
		async () => {
			if (!(await condition())) throw new Error(`not within ${timeoutMs} ms: ${what}`);
		},
		{ timeout: timeoutMs, interval: intervalMs },
	);
}
