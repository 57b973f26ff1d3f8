import * as vscode from 'vscode';
import type { PlanProgressView } from '../../protocol/planProgress.js';
import { Disposable } from '../common/lifecycle.js';

/** What the panel reads of the plans' progress (`SurfaceHost` posts it as `plan-progress`). */
export interface PlanProgressSource {
	views(): readonly PlanProgressView[];
	readonly onDidChange: vscode.Event<void>;
}

/**
 * The progress of this window's plan executions, one per plan document (its path): going, and the
 * last few that ended, so a panel showing a finished step's run still says where the plan stands.
 * `PlanExecutions` writes it; the panel's surfaces read it.
 */
export class PlanProgress extends Disposable implements PlanProgressSource {
	private readonly _byPath = new Map<string, PlanProgressView>();
	private readonly _onDidChange = this._register(new vscode.EventEmitter<void>());
	readonly onDidChange = this._onDidChange.event;

	constructor(private readonly _keep = 5) {
		super();
	}

	views(): readonly PlanProgressView[] {
		return [...this._byPath.values()].reverse();
	}

	/** The plan's progress now (the newest plan first in `views`). */
	set(path: string, view: PlanProgressView): void {
		this._byPath.delete(path);
		this._byPath.set(path, view);
		while (this._byPath.size > this._keep) this._byPath.delete(this._byPath.keys().next().value!);
		this._onDidChange.fire();
	}

	get(path: string): PlanProgressView | undefined {
		return this._byPath.get(path);
	}
}
