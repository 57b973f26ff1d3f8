import type { Usage } from '../../contract/runEvents.js';
import { costOf } from '../providers/spec/pricing.js';
import type { ModelPrice } from './types.js';
import type { AgentUsage } from '../../contract/runResult.js';

/** Tokens and cost per agent over a run. */
export class UsageLedger {
	private readonly totals = new Map<string, AgentUsage>();

	/** Records one call and returns its cost (null when the agent's model has no known price). */
	record(agentId: string, usage: Usage, price: ModelPrice | undefined): number | null {
		return this.add(agentId, usage, price, 0);
	}

	/** Counts a call that ended early, with the tokens the provider reported for it (if any); returns its cost. */
	aborted(agentId: string, usage: Usage | undefined, price: ModelPrice | undefined): number | null {
		return this.add(agentId, usage ?? { inputTokens: 0, outputTokens: 0 }, price, 1);
	}

	/** One entry per agent, in the given order (agents that made no call have zeros). */
	summary(agentIds: readonly string[]): AgentUsage[] {
		return agentIds.map(
			(agentId) =>
				this.totals.get(agentId) ?? {
					agentId,
					calls: 0,
					abortedCalls: 0,
					inputTokens: 0,
					outputTokens: 0,
					costUsd: 0,
				},
		);
	}

	private add(agentId: string, usage: Usage, price: ModelPrice | undefined, aborted: number): number | null {
		const cost = costOf(usage, price ?? null);
		const previous = this.totals.get(agentId);
		const sum = (a: number | undefined, b: number | undefined) => (a ?? 0) + (b ?? 0);
		this.totals.set(agentId, {
			agentId,
			calls: (previous?.calls ?? 0) + 1,
			abortedCalls: (previous?.abortedCalls ?? 0) + aborted,
			inputTokens: sum(previous?.inputTokens, usage.inputTokens),
			outputTokens: sum(previous?.outputTokens, usage.outputTokens),
			reasoningTokens: sum(previous?.reasoningTokens, usage.reasoningTokens),
			cachedInputTokens: sum(previous?.cachedInputTokens, usage.cachedInputTokens),
			cacheWriteTokens: sum(previous?.cacheWriteTokens, usage.cacheWriteTokens),
			costUsd:
				cost === null || (previous && previous.costUsd === null) ? null : (previous?.costUsd ?? 0) + cost,
		});
		return cost;
	}
}
