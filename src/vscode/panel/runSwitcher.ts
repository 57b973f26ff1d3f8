import type * as vscode from 'vscode';
import type { SwitcherRun, SwitcherRunState } from '../../protocol/messages.js';
import type { RunState } from '../../protocol/runState.js';
import { questionLine } from '../common/runName.js';
import { Disposable, toDisposable } from '../common/lifecycle.js';
import type { ActiveRunInfo } from '../run/runTypes.js';

/** What the switcher reads of the window's runs (`RunController`). */
export interface SwitcherRuns {
	active(): readonly ActiveRunInfo[];
	readonly onDidChangeActive: vscode.Event<void>;
	readonly onDidEmitEvents: vscode.Event<unknown>;
	readonly onDidFinishRun: vscode.Event<unknown>;
}

/** The run a surface shows: its id and, when known, its state (a past run's read back). */
export interface ShownForSwitcher {
	readonly runId: string | undefined;
	readonly state: RunState | undefined;
}

/** At most one list per this many ms (each run's batches can change its state several times a second). */
export const switcherThrottleMs = 250;

/** Questions are cut to this (the side bar is about 290 px wide; the whole question is in the header). */
const nameChars = 48;

/**
 * The switcher's rows: the window's live runs (running first, then the queue) and, after them, the
 * run shown when it is not live (finished, or a past run opened from the list).
 */
export function switcherRuns(
	active: readonly ActiveRunInfo[],
	shown: ShownForSwitcher,
	reviewPending: (runId: string) => boolean,
): SwitcherRun[] {
	const rows: SwitcherRun[] = active.map((run) => {
		const runId = run.runId ?? null;
		const waiting = pendingApprovals(run.state);
		const state: SwitcherRunState = run.phase === 'queued' ? 'queued' : waiting > 0 ? 'approval' : 'working';
		return {
			key: run.ticket,
			runId,
			name: questionLine(run.request.question, nameChars),
			state,
			waiting,
			shown: runId !== null && runId === shown.runId,
		};
	});
	const shownId = shown.runId;
	if (shownId && !rows.some((row) => row.runId === shownId)) {
		const state = shown.state;
		rows.push({
			key: shownId,
			runId: shownId,
			name: questionLine(state?.question ?? '', nameChars),
			state: endedState(state, reviewPending(shownId)),
			waiting: 0,
			shown: true,
		});
	}
	return rows;
}

function pendingApprovals(state: RunState): number {
	return state.approvals.filter((approval) => approval.decision === null).length;
}

function endedState(state: RunState | undefined, review: boolean): SwitcherRunState {
	if (review) return 'review';
	switch (state?.status) {
		case 'running':
			return 'working';
		case 'failed':
		case 'timeout':
			return 'failed';
		case 'cancelled':
			return 'cancelled';
		default:
			return 'finished';
	}
}

/**
 * Posts the switcher's list to one surface whenever the window's runs change: a run asked, queued,
 * started or ended, a state change in a run's batches, the shown run or its review changing. At most
 * one post per `switcherThrottleMs`, and only a list that differs from the last one posted.
 */
export class SwitcherFeed extends Disposable {
	private _timer: ReturnType<typeof setTimeout> | undefined;
	private _last = '';

	constructor(
		runs: SwitcherRuns,
		private readonly _rows: () => SwitcherRun[],
		private readonly _post: (runs: readonly SwitcherRun[]) => void,
	) {
		super();
		const changed = () => this.changed();
		this._register(runs.onDidChangeActive(changed));
		this._register(runs.onDidEmitEvents(changed));
		this._register(runs.onDidFinishRun(changed));
		this._register(toDisposable(() => clearTimeout(this._timer)));
	}

	/** Something the list shows may have changed: posted within `switcherThrottleMs` if it did. */
	changed(): void {
		this._timer ??= setTimeout(() => {
			this._timer = undefined;
			const rows = this._rows();
			const text = JSON.stringify(rows);
			if (text === this._last) return;
			this._last = text;
			this._post(rows);
		}, switcherThrottleMs);
	}

	/** The list now, for a snapshot (which carries it): later posts are measured against it. */
	take(): SwitcherRun[] {
		const rows = this._rows();
		this._last = JSON.stringify(rows);
		return rows;
	}
}
