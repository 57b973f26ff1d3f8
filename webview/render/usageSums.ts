/** What the header's totals and its usage table add up from the lanes: tokens and cost. */
import { t } from '../strings.js';
import type { AgentLane } from '../../src/protocol/runState.js';
import { formatCost } from './format.js';

export interface Sums {
	readonly input: number;
	readonly output: number;
	readonly cached: number;
	/** null: no call of any agent had a known price. */
	readonly cost: number | null;
	/** Agents whose calls had no known price: the cost is a lower bound when some others had one. */
	readonly unpriced: number;
}

export function sumsOf(lanes: readonly AgentLane[]): Sums {
	let input = 0;
	let output = 0;
	let cached = 0;
	let cost = 0;
	let priced = 0;
	let unpriced = 0;
	for (const lane of lanes) {
		input += lane.inputTokens;
		output += lane.outputTokens;
		cached += lane.cachedInputTokens;
		if (lane.calls === 0) continue;
		if (lane.costUsd === null) unpriced += 1;
		else {
			priced += 1;
			cost += lane.costUsd;
		}
	}
	return { input, output, cached, cost: unpriced > 0 && priced === 0 ? null : cost, unpriced };
}

/** "$0.12", "≥ $0.12" when some calls had no price, "no price" when none had one. */
export function costText(sums: Sums): string {
	if (sums.cost === null) return t('noPrice');
	return sums.unpriced > 0 ? `≥ ${formatCost(sums.cost)}` : formatCost(sums.cost);
}
