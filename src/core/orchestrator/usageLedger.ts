import type { Usage } from '../providers/model.js';
import type { AgentUsage, ModelPrice } from './types.js';

/** USD for one call; cached input is billed at its own rate when the price has one. */
export function costOfUsage(usage: Usage, price: ModelPrice): number {
	const cached = usage.cachedInputTokens ?? 0;
	const fresh = Math.max(0, usage.inputTokens - cached);
	const perMillion =
		fresh * price.input +
		cached * (price.cachedInput ?? price.input) +
		(usage.cacheWriteTokens ?? 0) * (price.cacheWrite ?? price.input) +
		usage.outputTokens * price.output;
	return perMillion / 1_000_000;
}

/** Tokens and cost per agent over a run. */
export class UsageLedger {
	private readonly totals = new Map<string, AgentUsage>();

	/** Records one call and returns its cost (null when the agent's model has no known price). */
	record(agentId: string, usage: Usage, price: ModelPrice | undefined): number | null {
		const cost = price ? costOfUsage(usage, price) : null;
		const previous = this.totals.get(agentId);
		const sum = (a: number | undefined, b: number | undefined) => (a ?? 0) + (b ?? 0);
		this.totals.set(agentId, {
			agentId,
			calls: (previous?.calls ?? 0) + 1,
			inputTokens: sum(previous?.inputTokens, usage.inputTokens),
			outputTokens: sum(previous?.outputTokens, usage.outputTokens),
			reasoningTokens: sum(previous?.reasoningTokens, usage.reasoningTokens),
			cachedInputTokens: sum(previous?.cachedInputTokens, usage.cachedInputTokens),
			cacheWriteTokens: sum(previous?.cacheWriteTokens, usage.cacheWriteTokens),
			costUsd: cost === null || (previous && previous.costUsd === null) ? null : (previous?.costUsd ?? 0) + cost,
		});
		return cost;
	}

	/** One entry per agent, in the given order (agents that made no call have zeros). */
	summary(agentIds: readonly string[]): AgentUsage[] {
		return agentIds.map(
			(agentId) =>
				this.totals.get(agentId) ?? { agentId, calls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 },
		);
	}
}
