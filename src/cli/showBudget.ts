/**
 * The run budget in `massgen show`: spent / cap for each cap with where it was set (as the panel
 * header shows spent / cap), and why the budget ended the run. Nothing without a cap.
 */
import type { BudgetRecord } from '../contract/runEvents.js';
import { formatCost } from '../core/sessions/reportFormat.js';

const tokens = (count: number) => count.toLocaleString('en-US');

export function budgetLines(budget: BudgetRecord | undefined): string[] {
	if (!budget || (!budget.maxCostUsd && !budget.maxTokens)) return [];
	const caps = [
		...(budget.maxCostUsd
			? [
					`${formatCost(budget.spentUsd)} / ${formatCost(budget.maxCostUsd.limit)} (${budget.maxCostUsd.source})`,
				]
			: []),
		...(budget.maxTokens
			? [
					`${tokens(budget.spentTokens)} / ${tokens(budget.maxTokens.limit)} tokens (${budget.maxTokens.source})`,
				]
			: []),
	];
	return [`budget    ${caps.join(' · ')}`, ...(budget.reason ? [`stopped   ${budget.reason}`] : [])];
}
