/**
 * What the Runs view's live rows do: stop a run (or take a queued one off the queue), start a
 * queued run now, move it in the queue, and review its changes. Each takes the row the menu passes;
 * a row that no longer stands for a run (it ended meanwhile) does nothing.
 */
import * as vscode from 'vscode';
import { commandIds } from '../common/commandIds.js';
import type { LiveRunNode } from './liveRunRows.js';

/** The run controller's queue and cancel (`RunController`). */
export interface LiveRunControl {
	cancel(id?: string): boolean;
	startNow(ticket: string): boolean;
	moveQueued(ticket: string, delta: number): boolean;
}

export class LiveRunActions {
	constructor(
		private readonly _runs: LiveRunControl,
		private readonly _log: { info(message: string): void },
	) {}

	/** Stop (a going run) or Remove from Queue (a queued one): the controller's cancel by ticket. */
	stop(node: unknown): boolean {
		const row = liveOf(node);
		if (!row) return false;
		const done = this._runs.cancel(row.ticket);
		this._log.info(
			`runs view: ${row.state === 'queued' ? 'remove from queue' : 'stop'} ${row.ticket}: ${done ? 'done' : 'no such run'}`,
		);
		return done;
	}

	startNow(node: unknown): boolean {
		const row = liveOf(node);
		return row !== undefined && this._runs.startNow(row.ticket);
	}

	move(node: unknown, delta: -1 | 1): boolean {
		const row = liveOf(node);
		return row !== undefined && this._runs.moveQueued(row.ticket, delta);
	}

	/** The run's pending changes in the multi-file diff (the change review's Review Changes, for this run). */
	async reviewChanges(node: unknown): Promise<void> {
		const row = liveOf(node);
		if (row?.runId) await vscode.commands.executeCommand(commandIds.reviewChanges, { runId: row.runId });
	}
}

export function liveOf(node: unknown): LiveRunNode | undefined {
	return typeof node === 'object' && node !== null && (node as { kind?: unknown }).kind === 'live'
		? (node as LiveRunNode)
		: undefined;
}
