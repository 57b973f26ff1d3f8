/**
 * The lines stderr ends a run with (docs/cli.md): why coordination ended (with a quorum stop's
 * saving), each agent's input, cached and output tokens and cost, and the run's total against
 * its budget. From `result.json`'s record, so they match what `massgen show` reads later.
 */
import type { RunResult } from '../../contract/runResult.js';
import { coordinationText } from '../../core/sessions/coordinationText.js';
import { plural } from './formatEventLine.js';
import { formatCost, formatTokens } from './terminalText.js';

export function runSummaryLines(result: RunResult): string[] {
	const lines: string[] = [];
	const coordination = result.coordination;
	if (coordination) lines.push(`coordination ended: ${coordinationText(coordination)}`);
	if (result.steering?.length) lines.push(`your messages: ${result.steering.length}`);
	for (const usage of result.usage) {
		const cached = usage.cachedInputTokens ? ` (${formatTokens(usage.cachedInputTokens)} cached)` : '';
		const calls = plural(usage.calls, 'call');
		lines.push(
			`usage ${usage.agentId}: ${formatTokens(usage.inputTokens)} in${cached}, ${formatTokens(usage.outputTokens)} out, ${formatCost(usage.costUsd)} (${calls})`,
		);
	}
	if (result.usage.length > 0) lines.push(totalLine(result));
	return lines;
}

/** `total: $0.0123 of $0.0500 (--max-cost), 3.4k tokens of 20.0k (--max-tokens)`, caps only where set. */
function totalLine(result: RunResult): string {
	const unpriced = result.usage.some((usage) => usage.costUsd === null);
	const usd = result.usage.reduce((sum, usage) => sum + (usage.costUsd ?? 0), 0);
	const tokens = result.usage.reduce((sum, usage) => sum + usage.inputTokens + usage.outputTokens, 0);
	const budget = result.budget;
	const priced = result.usage.some((usage) => usage.costUsd !== null);
	const cost = !priced ? 'no price' : `${formatCost(usd)}${unpriced ? ' (some calls unpriced)' : ''}`;
	const costCap = budget?.maxCostUsd
		? ` of ${formatCost(budget.maxCostUsd.limit)} (${budget.maxCostUsd.source})`
		: '';
	const tokenCap = budget?.maxTokens
		? ` of ${formatTokens(budget.maxTokens.limit)} (${budget.maxTokens.source})`
		: '';
	return `total: ${cost}${costCap}, ${formatTokens(tokens)} tokens${tokenCap}`;
}
