/**
 * The run budget as the CLI shows it: the caps that apply with where they were set (the run-start
 * line), and spent / cap while the run goes (the live table's header). Spent is the lanes' sums,
 * as the usage events report them.
 */
import type { BudgetRecord } from '../../contract/runEvents.js';
import type { RunState } from '../../protocol/runState.js';
import { formatCost, formatTokens } from './terminalText.js';

/** `budget: $0.0500 (--max-cost), 20k tokens (--max-tokens)`; null without caps. */
export function budgetCapsText(budget: BudgetRecord | undefined): string | null {
	if (!budget) return null;
	const caps = [
		...(budget.maxCostUsd ? [`${formatCost(budget.maxCostUsd.limit)} (${budget.maxCostUsd.source})`] : []),
		...(budget.maxTokens
			? [`${formatTokens(budget.maxTokens.limit)} tokens (${budget.maxTokens.source})`]
			: []),
	];
	return caps.length ? `budget: ${caps.join(', ')}` : null;
}

/** `$0.0123 / $0.0500 · 12.3k / 20k tok`; null without caps. */
export function budgetSpentText(state: RunState): string | null {
	const budget = state.budget;
	if (!budget) return null;
	let usd = 0;
	let tokens = 0;
	for (const id of state.agentOrder) {
		const lane = state.agents[id];
		if (!lane) continue;
		usd += lane.costUsd ?? 0;
		tokens += lane.inputTokens + lane.outputTokens;
	}
	const parts = [
		...(budget.maxCostUsd !== null ? [`${formatCost(usd)} / ${formatCost(budget.maxCostUsd)}`] : []),
		...(budget.maxTokens !== null ? [`${formatTokens(tokens)} / ${formatTokens(budget.maxTokens)} tok`] : []),
	];
	return parts.join(' · ');
}
