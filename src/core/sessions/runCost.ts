import type { RunResult } from '../../contract/runResult.js';

/** The run's cost in USD: null when any agent's calls had no known price. */
export function runCost(result: RunResult): number | null {
	let total = 0;
	for (const usage of result.usage) {
		if (typeof usage.costUsd !== 'number') return null;
		total += usage.costUsd;
	}
	return total;
}
