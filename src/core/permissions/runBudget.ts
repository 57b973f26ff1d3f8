/**
 * The per-run budget: a cap on tool calls (every tool, workspace tools included) and on the
 * run's model cost. Reaching it stops the agent that reaches it, with a message naming the cap.
 * The run-wide cost and token caps (`lowerCap`, `budgetCaps`) are enforced by the orchestrator's
 * `SpendGuard`, which ends the whole run first; this class then keeps the tool-call cap.
 */
import type { BudgetCap, BudgetRecord } from '../../contract/runEvents.js';

export interface BudgetLimits {
	/** null = no cap. */
	readonly maxToolCalls: number | null;
	/** USD; null = no cap. Calls without a known price count as 0. */
	readonly maxCostUsd: number | null;
}

export class RunBudget {
	private toolCalls = 0;
	private costUsd = 0;

	constructor(readonly limits: BudgetLimits) {}

	get usedToolCalls(): number {
		return this.toolCalls;
	}

	get spentUsd(): number {
		return this.costUsd;
	}

	/** Counts one tool call; returns why it is over budget, or null when it may run. */
	takeToolCall(): string | null {
		const over = this.costMessage();
		if (over !== null) return over;
		const max = this.limits.maxToolCalls;
		if (max !== null && this.toolCalls >= max) {
			return `the run's tool-call budget is used up (max_tool_calls: ${max})`;
		}
		this.toolCalls++;
		return null;
	}

	/** Adds a model call's cost; returns why the run is now over budget, or null. */
	addCost(usd: number | null): string | null {
		if (usd !== null && Number.isFinite(usd)) this.costUsd += usd;
		return this.costMessage();
	}

	private costMessage(): string | null {
		const max = this.limits.maxCostUsd;
		if (max === null || this.costUsd <= max) return null;
		return `the run's cost budget is used up ($${this.costUsd.toFixed(4)} spent, max_cost_usd: ${max})`;
	}
}

/** A cap one place asks for (null/undefined = that place sets none). */
export interface CapRequest {
	readonly limit: number | null | undefined;
	readonly source: string;
}

/** The lowest of the caps asked for, naming where it came from; null when none is set. */
export function lowerCap(requests: readonly CapRequest[]): BudgetCap | null {
	let lowest: BudgetCap | null = null;
	for (const { limit, source } of requests) {
		if (limit === null || limit === undefined || !Number.isFinite(limit) || limit <= 0) continue;
		if (lowest === null || limit < lowest.limit) lowest = { limit, source };
	}
	return lowest;
}

/** The run's caps as `run-start` and `result.json` carry them; null when there is none. */
export function budgetCaps(
	cost: readonly CapRequest[],
	tokens: readonly CapRequest[],
): Pick<BudgetRecord, 'maxCostUsd' | 'maxTokens'> | null {
	const maxCostUsd = lowerCap(cost);
	const maxTokens = lowerCap(tokens);
	return maxCostUsd === null && maxTokens === null ? null : { maxCostUsd, maxTokens };
}
