import type * as vscode from 'vscode';
import type { RunEventBatch } from './liveRun.js';
import type { RunRequest, StartOutcome } from './runTypes.js';

/** What a chat shell (`@massgen`, the model picker) needs of the run controller: start, and follow. */
export interface RunStarter {
	readonly isRunning: boolean;
	tryStart(request: RunRequest, token?: vscode.CancellationToken): Promise<StartOutcome>;
	readonly onDidEmitEvents: vscode.Event<RunEventBatch>;
}
