import type { SteerMessage, SteerOutcome } from '../orchestrator/steerInbox.js';

export type { SteerMessage, SteerOutcome } from '../orchestrator/steerInbox.js';

export type FinishOutcome = { readonly ok: true } | { readonly ok: false; readonly reason: string };

/** What a shell can do to a running run (the panel, `massgen chat`, `massgen run --inbox`, SIGUSR1). */
export interface RunControl {
	/** Stop agent: false when the run is not coordinating or the agent cannot be stopped now. */
	stopAgent(agentId: string): boolean;
	/** The user's message to the team (or one agent): it reaches them at their next model call. */
	steer(message: SteerMessage): SteerOutcome;
	/** No new round; the leading answer is presented as soon as there is one. */
	finishNow(): FinishOutcome;
}

/** Before the run exists and after it ended. */
export const notRunning: RunControl = {
	stopAgent: () => false,
	steer: () => ({ ok: false, reason: 'The run is not going.' }),
	finishNow: () => ({ ok: false, reason: 'The run is not going.' }),
};
