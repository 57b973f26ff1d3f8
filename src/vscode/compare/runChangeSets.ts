import type * as vscode from 'vscode';
import type { ChangeActions } from '../run/runTypes.js';

/** What a comparison asks of the change review, each call naming the run it is about. */
export interface RunChangeSets {
	/** The run has changes waiting for review. */
	pending(runId: string): boolean;
	/** Accept (every pending file of) the run's change set, through the change review. */
	accept(runId: string): Promise<void>;
	/** Discard the run's change set; nothing is written. */
	reject(runId: string): Promise<void>;
	readonly onDidChange: vscode.Event<unknown>;
}

/** The change review's per-run calls. */
export function runChangeSets(changes: ChangeActions): RunChangeSets {
	return {
		pending: (runId) => changes.changeSet(runId) !== null,
		accept: (runId) => changes.accept({ runId }),
		reject: (runId) => changes.reject(runId),
		onDidChange: changes.onDidChangeChangeSet,
	};
}
