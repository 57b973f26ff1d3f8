import * as vscode from 'vscode';
import type { RunEvent } from '../../contract/runEvents.js';
import type { FinishOutcome, RunControl, SteerMessage, SteerOutcome } from '../../core/run/runControl.js';
import type { RunSessionOutcome } from '../../core/run/runSession.js';
import type { RunHandle } from '../../core/run/startRun.js';
import { reduceRun } from '../../protocol/reduceRun.js';
import { initialRunState, type RunState } from '../../protocol/runState.js';
import { EventBatcher } from './eventBatcher.js';

/** Live events of one run, coalesced (at most one batch per ~30 ms). */
export interface RunEventBatch {
	readonly runId: string;
	readonly events: readonly RunEvent[];
}

/**
 * The live view of one running run: its state folded with the shared reducer (the panel and the
 * status bar read the same `RunState`), its events delivered in batches, and its controls (Stop
 * agent, a message to the team, Finish now). The state outlives the run.
 */
export class LiveRun {
	private _state: RunState = initialRunState();
	/** The run's controls; undefined before it starts and after it ends. */
	private _control: RunControl | undefined;

	constructor(
		private readonly _onBatch: (batch: RunEventBatch) => void,
		private readonly _batchMs = 30,
	) {}

	get state(): RunState {
		return this._state;
	}

	/** The run's id once its first event arrived. */
	get runId(): string | undefined {
		return this._state.runId ?? undefined;
	}

	/** False when the run is not going or the agent cannot be stopped now. */
	stopAgent(agentId: string): boolean {
		return this._control?.stopAgent(agentId) ?? false;
	}

	/** A message to the team; refused (with the reason the user sees) when the run is not going. */
	steer(message: SteerMessage): SteerOutcome {
		return this._control?.steer(message) ?? { ok: false, reason: notGoing() };
	}

	/** Finish now; refused (with the reason the user sees) when the run is not going. */
	finishNow(): FinishOutcome {
		return this._control?.finishNow() ?? { ok: false, reason: notGoing() };
	}

	/**
	 * Folds the run's events into the state and delivers them in batches until it ends; `onEvent`
	 * sees each event before it is folded. Resolves with the run's outcome, every batch delivered.
	 */
	async follow(run: RunHandle, onEvent: (event: RunEvent) => void): Promise<RunSessionOutcome> {
		const batcher = new EventBatcher<RunEvent>(
			(events) => this._onBatch({ runId: events[0]!.runId, events }),
			this._batchMs,
		);
		this._control = run;
		try {
			for await (const event of run.events) {
				onEvent(event);
				this._state = reduceRun(this._state, event);
				batcher.push(event);
			}
			const outcome = await run.result;
			batcher.flush();
			return outcome;
		} finally {
			this._control = undefined;
			batcher.dispose();
		}
	}
}

/** The reason a control of a run that has not started or has ended is refused. */
function notGoing(): string {
	return vscode.l10n.t('The run is not going.');
}
