/**
 * `massgen.maxCostUsdPerDay` (or any shell's day cap) as a run's budget. Runs going at once each
 * hold their whole cost cap from their start (or what they spent, when more or when they have no
 * cap), so the runs a day cap admits never together pass it — beyond what one call can overshoot
 * any cap (`SpendGuard` checks after each call). A run gets the lower of its own cap and what the
 * finished runs and the held caps leave; nothing left: it is refused.
 */
import type { CapRequest } from '../permissions/runBudget.js';

/** Less than this is nothing left (`formatUsd`'s smallest step; sums of costs leave float crumbs). */
const minimumUsd = 0.0001;

/** A run going now: its cost cap (null: none) and what it has spent so far. */
export interface GoingRun {
	readonly capUsd: number | null;
	readonly spentUsd: number;
}

export type DayBudget =
	| { readonly ok: true; readonly maxCostUsd: CapRequest | undefined }
	| {
			readonly ok: false;
			readonly perDayUsd: number;
			/** By the day's finished runs. */
			readonly spentUsd: number;
			/** Held by the runs going now. */
			readonly heldUsd: number;
	  };

/** What the runs going now hold of the day: each its cap, or what it spent when more or uncapped. */
export function heldByGoing(going: readonly GoingRun[]): number {
	return going.reduce((sum, run) => sum + Math.max(run.capUsd ?? 0, run.spentUsd), 0);
}

/**
 * The run's cost cap under the day's: `perRun` when it fits in what is left (crumbs aside), else
 * what is left (named by `source`).
 */
export function dayBudget(input: {
	readonly perDayUsd: number;
	readonly source: string;
	readonly spentUsd: number;
	readonly going: readonly GoingRun[];
	readonly perRun: CapRequest | undefined;
}): DayBudget {
	const { perDayUsd, spentUsd, perRun } = input;
	const heldUsd = heldByGoing(input.going);
	const left = perDayUsd - spentUsd - heldUsd;
	if (!(left >= minimumUsd)) return { ok: false, perDayUsd, spentUsd, heldUsd };
	const own = perRun?.limit;
	if (typeof own === 'number' && Number.isFinite(own) && own > 0 && own < left + minimumUsd) {
		return { ok: true, maxCostUsd: perRun };
	}
	return { ok: true, maxCostUsd: { limit: left, source: input.source } };
}
