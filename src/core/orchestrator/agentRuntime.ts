import type { AgentExecution } from '../agents/agentExecution.js';
import type { FirstOutputEstimate } from '../agents/restartRule.js';
import type { Overlay } from '../workspace/types.js';
import type { AgentSpec } from './types.js';

/** Per-agent mutable state during one run (owned by the orchestrator). */
export interface AgentRuntime {
	readonly spec: AgentSpec;
	readonly anonId: string;
	/** The agent's private copy-on-write overlay; it persists across its executions (a new attempt starts a new one). */
	overlay: Overlay;
	killed: boolean;
	/** Consecutive failed model calls; reset by a successful call. */
	failures: number;
	/** Consecutive turns that ended without a valid workflow call; reset by an accepted answer or vote. */
	exhaustedTurns: number;
	/** Executions started so far. */
	rounds: number;
	/** Kept across executions: whether dropping a stale call is cheaper depends on it. */
	readonly firstOutput: FirstOutputEstimate;
	lastError: string | undefined;
	running: RunningExecution | undefined;
}

export interface RunningExecution {
	readonly controller: AbortController;
	execution: AgentExecution | undefined;
	/** Tools can take long (an approval waits for the user): meanwhile no one waits for this execution. */
	runningTools: boolean;
}

/** Abort reasons the orchestrator tells apart. */
export const stopReasons = {
	turnTimeout: Symbol('turn timeout'),
	killed: Symbol('killed'),
	coordinationEnded: Symbol('coordination ended'),
	presentationTimeout: Symbol('presentation timeout'),
} as const;

/** Fisher–Yates over config ids, so `agentN` says nothing about config position. */
export function anonymousOrder(
	ids: readonly string[],
	mode: 'shuffled' | 'config',
	random: () => number,
): string[] {
	const order = [...ids];
	if (mode === 'config') return order;
	for (let i = order.length - 1; i > 0; i--) {
		const j = Math.floor(random() * (i + 1));
		[order[i], order[j]] = [order[j]!, order[i]!];
	}
	return order;
}
