import type { BudgetRecord, RunEventBody, Usage } from '../../contract/runEvents.js';

export type BudgetCaps = Pick<BudgetRecord, 'maxCostUsd' | 'maxTokens'>;
type Reached = Extract<RunEventBody, { type: 'budget-reached' }>;

/**
 * The run budget's cost and token caps (docs/protocol.md, rule 13), counted from every call's usage as the
 * ledger records it (aborted calls with the usage their provider had reported). Reaching a cap
 * aborts `signal` once: the orchestrator then starts no model call and stops the calls in flight
 * (coordination ends; the presentation and post-evaluation follow `signal`).
 */
export class SpendGuard {
	private spentUsd = 0;
	private spentTokens = 0;
	private reachedEvent: Reached | undefined;
	private readonly controller = new AbortController();

	constructor(
		private readonly caps: BudgetCaps | null,
		private readonly onReached: (event: Reached) => void,
	) {}

	/** Aborted when a cap is reached. */
	get signal(): AbortSignal {
		return this.controller.signal;
	}

	get reached(): Reached | undefined {
		return this.reachedEvent;
	}

	/**
	 * Counts one call; false once a cap is reached (then the tools' own `max_cost_usd` is not told:
	 * it would kill the agent as well).
	 */
	add(usage: Usage | undefined, costUsd: number | null): boolean {
		if (costUsd !== null && Number.isFinite(costUsd)) this.spentUsd += costUsd;
		if (usage) this.spentTokens += usage.inputTokens + usage.outputTokens;
		if (this.caps === null) return true;
		if (this.reachedEvent) return false;
		const { maxCostUsd, maxTokens } = this.caps;
		if (maxCostUsd && this.spentUsd >= maxCostUsd.limit) {
			const reason = `cost budget reached: $${this.spentUsd.toFixed(4)} of $${maxCostUsd.limit.toFixed(4)} (${maxCostUsd.source})`;
			this.reach({
				type: 'budget-reached',
				kind: 'cost',
				limit: maxCostUsd.limit,
				spent: this.spentUsd,
				reason,
			});
		} else if (maxTokens && this.spentTokens >= maxTokens.limit) {
			const spent = this.spentTokens.toLocaleString('en-US');
			const reason = `token budget reached: ${spent} of ${maxTokens.limit.toLocaleString('en-US')} tokens (${maxTokens.source})`;
			this.reach({
				type: 'budget-reached',
				kind: 'tokens',
				limit: maxTokens.limit,
				spent: this.spentTokens,
				reason,
			});
		}
		return this.reachedEvent === undefined;
	}

	/** What `run-start` (nothing spent), `run-end` and `result.json` carry; undefined without caps. */
	record(): BudgetRecord | undefined {
		if (this.caps === null) return undefined;
		const spent = { spentUsd: round(this.spentUsd), spentTokens: this.spentTokens };
		return { ...this.caps, ...spent, ...(this.reachedEvent ? { reason: this.reachedEvent.reason } : {}) };
	}

	private reach(event: Reached): void {
		this.reachedEvent = event;
		this.onReached(event);
		this.controller.abort(event.reason);
	}
}

/** Sums of float prices: 1e-9 USD is far below any price's precision. */
function round(usd: number): number {
	return Math.round(usd * 1e9) / 1e9;
}
