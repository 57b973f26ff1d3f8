import type { CoordinationSaving } from '../../contract/runEvents.js';
import type { AgentRuntime } from './agentRuntime.js';
import type { UsageLedger } from './usageLedger.js';

/**
 * What ending coordination without `notWaitedFor` saved: their calls in flight (stopped now; the
 * tokens a provider reported for them are still counted) and, as an estimate, one more call each
 * at that agent's average cost per call so far (the team's, for an agent with none yet).
 */
export function estimateSaving(
	notWaitedFor: readonly AgentRuntime[],
	ledger: UsageLedger,
	agentIds: readonly string[],
): CoordinationSaving | undefined {
	if (notWaitedFor.length === 0) return undefined;
	const usage = ledger.summary(agentIds);
	const priced = usage.every((agent) => agent.costUsd !== null);
	const calls = usage.reduce((sum, agent) => sum + agent.calls, 0);
	const teamAverage = calls === 0 ? 0 : usage.reduce((sum, agent) => sum + (agent.costUsd ?? 0), 0) / calls;
	let estimate = 0;
	for (const rt of notWaitedFor) {
		const own = usage.find((agent) => agent.agentId === rt.spec.id);
		estimate += own && own.calls > 0 ? (own.costUsd ?? 0) / own.calls : teamAverage;
	}
	return {
		callsStopped: notWaitedFor.filter((rt) => rt.running !== undefined).length,
		agentsNotWaitedFor: notWaitedFor.map((rt) => rt.spec.id),
		estimatedCostUsd: priced ? Math.round(estimate * 1e6) / 1e6 : null,
	};
}
