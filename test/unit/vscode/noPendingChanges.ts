import * as vscode from 'vscode';
import type { ChangeActions, ChangeSetChange } from '../../../src/vscode/run/runTypes';

/** A change review with nothing pending, for panel tests about something else. */
export function noPendingChanges(): ChangeActions {
	return {
		openDiff: async () => undefined,
		accept: async () => undefined,
		reject: async () => undefined,
		selectHunks: () => undefined,
		changeSet: () => null,
		pendingRunIds: () => [],
		proposalFiles: () => [],
		onDidChangeChangeSet: new vscode.EventEmitter<ChangeSetChange>().event,
	};
}
