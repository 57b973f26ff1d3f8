import type { RunState } from '../../protocol/runState.js';

/** Finished runs whose live state stays readable (`stateOf`) for a panel that still shows them. */
const kept = 8;

/** The live states of the runs that ended lately, the newest `kept`. */
export class RecentStates {
	private readonly _states = new Map<string, RunState>();

	get(runId: string): RunState | undefined {
		return this._states.get(runId);
	}

	keep(runId: string, state: RunState): void {
		this._states.delete(runId);
		this._states.set(runId, state);
		for (const old of this._states.keys()) {
			if (this._states.size <= kept) break;
			this._states.delete(old);
		}
	}
}
