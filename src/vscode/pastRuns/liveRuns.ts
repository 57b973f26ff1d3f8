import * as vscode from 'vscode';
import type { PendingApproval } from '../../core/permissions/approvalBroker.js';
import { Disposable, toDisposable } from '../common/lifecycle.js';
import type { ActiveRunInfo, FinishedRun, StartedRun } from '../run/runTypes.js';
import { type EndedRunLine, liveRunRows, type LiveRunNode, needsUserCount } from './liveRunRows.js';

/** The run controller as the live rows read it. */
export interface LiveRunSource {
	active(): readonly ActiveRunInfo[];
	readonly onDidChangeActive: vscode.Event<void>;
	readonly onDidStartRun: vscode.Event<StartedRun>;
	readonly onDidFinishRun: vscode.Event<FinishedRun>;
}

/** The approval broker as the live rows read it (`ApprovalBroker`). */
export interface LiveApprovalSource {
	pending(runId?: string): readonly PendingApproval[];
	onDidRequest(listener: (request: PendingApproval) => void): () => void;
	onDidSettle(listener: (request: PendingApproval) => void): () => void;
}

/** The change review as the live rows read it: which runs' change sets wait, and when that changes. */
export interface LiveChangeSource {
	pendingRunIds(): readonly string[];
	readonly onDidChange: vscode.Event<unknown>;
}

/** Ended runs kept for their rows (changes to review, failed, cancelled) and their names. */
const keptEnded = 16;

/**
 * The window's runs as the Runs view's top rows see them: what the controller runs and queues,
 * which of them wait for an approval (the broker), and the ones that ended with changes to review
 * or failed. Fires `onDidChange` only when the rows or the badge would read differently — never
 * for a run's event batches (the rows show no per-event detail).
 */
export class LiveRuns extends Disposable {
	private readonly _onDidChange = this._register(new vscode.EventEmitter<void>());
	readonly onDidChange = this._onDidChange.event;
	private readonly _ended: EndedRunLine[] = [];
	/** The ticket of each run id the controller named (a row keeps its id when the run gets one). */
	private readonly _tickets = new Map<string, string>();
	private _last = '';

	constructor(
		private readonly _runs: LiveRunSource,
		private readonly _approvals: LiveApprovalSource,
		private readonly _changes: LiveChangeSource,
		private readonly _now: () => number = Date.now,
	) {
		super();
		this._register(_runs.onDidStartRun(({ runId, ticket }) => this._tickets.set(runId, ticket)));
		this._register(_runs.onDidFinishRun((run) => this._finished(run)));
		this._register(_runs.onDidChangeActive(() => this._check()));
		this._register(_changes.onDidChange(() => this._check()));
		const offRequest = _approvals.onDidRequest(() => this._check());
		const offSettle = _approvals.onDidSettle(() => this._check());
		this._register(toDisposable(() => (offRequest(), offSettle())));
	}

	/** The rows now; `inHistory`: the run ids the Runs view's history lists (a failed run leaves the top then). */
	rows(inHistory: ReadonlySet<string> = new Set()): LiveRunNode[] {
		const folders = vscode.workspace.workspaceFolders ?? [];
		return liveRunRows({
			active: this._runs.active().map((run) => ({ ...run, question: run.request.question })),
			ended: this._ended,
			approvals: (runId) => this._approvals.pending(runId).length,
			pendingChanges: new Set(this._changes.pendingRunIds()),
			inHistory,
			multiRoot: folders.length > 1,
			now: this._now(),
		});
	}

	/** How many runs need the user: an approval waits, or a change set waits for review. */
	needsUser(): number {
		const asking = this._approvals.pending().map((request) => request.runId);
		return needsUserCount(asking, new Set(this._changes.pendingRunIds()));
	}

	/** A run of this window by run id (going, or ended lately): its question and folder, for notifications. */
	find(runId: string): { readonly question: string; readonly folderName: string } | undefined {
		const active = this._runs.active().find((run) => run.runId === runId);
		if (active) return { question: active.request.question, folderName: active.folder.name };
		const ended = this._ended.find((run) => run.runId === runId);
		return ended && { question: ended.question, folderName: ended.folder.name };
	}

	private _finished(run: FinishedRun): void {
		const { runId, status, changes } = run.result;
		const ended: EndedRunLine['ended'] =
			status === 'failed'
				? 'failed'
				: status === 'cancelled'
					? 'cancelled'
					: changes.length > 0
						? 'changes'
						: 'done';
		const ticket = this._tickets.get(runId) ?? runId;
		this._tickets.delete(runId);
		this._ended.unshift({
			ticket,
			runId,
			question: run.request.question,
			folder: { name: run.folder.name },
			ended,
			endedAt: this._now(),
		});
		this._ended.splice(keptEnded);
		this._check();
	}

	/** Tells the view when what it shows (the rows, the badge) changed. */
	private _check(): void {
		const key = JSON.stringify([
			this.rows().map((row) => [row.id, row.state, row.place, row.approvals]),
			this.needsUser(),
		]);
		if (key === this._last) return;
		this._last = key;
		this._onDidChange.fire();
	}
}
