import * as vscode from 'vscode';
import type { RunEvent } from '../../contract/runEvents.js';
import type { RunSessionOutcome } from '../../core/run/runSession.js';
import type { RunHandle } from '../../core/run/startRun.js';
import { reduceRun } from '../../protocol/reduceRun.js';
import { initialRunState, type RunState } from '../../protocol/runState.js';
import { Disposable } from '../common/lifecycle.js';
import { EventBatcher } from './eventBatcher.js';
import type { RunStatusBar } from './runStatusBar.js';

/** Live events of the current run, coalesced (at most one batch per ~30 ms). */
export interface RunEventBatch {
	readonly runId: string;
	readonly events: readonly RunEvent[];
}

/**
 * The live view of the running run: its state folded with the shared reducer (the panel and the
 * status bar read the same `RunState`), its events forwarded in batches, and its Stop-agent control.
 * The state outlives the run (the last run's stays readable until the next starts).
 */
export class LiveRun extends Disposable {
	private readonly _onDidEmitEvents = this._register(new vscode.EventEmitter<RunEventBatch>());
	readonly onDidEmitEvents = this._onDidEmitEvents.event;

	private _state: RunState | null = null;
	/** The running run's controls (Stop agent); undefined between runs. */
	private _control: { stopAgent(agentId: string): boolean } | undefined;

	constructor(
		private readonly _statusBar: RunStatusBar,
		private readonly _batchMs = 30,
	) {
		super();
	}

	/** The state of the current run, or of the last one (null before any). */
	get state(): RunState | null {
		return this._state;
	}

	/** False when no run is going or the agent cannot be stopped now. */
	stopAgent(agentId: string): boolean {
		return this._control?.stopAgent(agentId) ?? false;
	}

	/** A run is about to start: its state starts empty. */
	reset(): void {
		this._state = initialRunState();
	}

	/**
	 * Folds the run's events into the state and forwards them in batches until it ends; `onEvent`
	 * sees each event before it is folded. Resolves with the run's outcome, every batch delivered.
	 */
	async follow(run: RunHandle, onEvent: (event: RunEvent) => void): Promise<RunSessionOutcome> {
		const batcher = new EventBatcher<RunEvent>((events) => {
			this._statusBar.update(this._state);
			this._onDidEmitEvents.fire({ runId: events[0]!.runId, events });
		}, this._batchMs);
		this._control = run;
		try {
			for await (const event of run.events) {
				onEvent(event);
				this._state = reduceRun(this._state ?? initialRunState(), event);
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
