import type * as vscode from 'vscode';
import type { RunEventBatch } from './liveRun.js';
import type { RunRequest, StartOutcome } from './runTypes.js';

/**
 * What a chat shell (`@massgen`, the model picker, the LM tool) needs of the run controller: start
 * a run (queued when the window's runs are at their limit) and follow its own events.
 */
export interface RunStarter {
	tryStart(
		request: RunRequest,
		token?: vscode.CancellationToken,
		follow?: (batch: RunEventBatch) => void,
	): Promise<StartOutcome>;
}
