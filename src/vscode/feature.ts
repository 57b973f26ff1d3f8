import type * as vscode from 'vscode';
import type { CommandHandlers } from './commands.js';
import type { IDisposable } from './lifecycle.js';
import type { FindingThread } from './review/selectionReview.js';
import type { ChangeActions, RunService } from './run/runTypes.js';

/** What a feature module (e.g. the change review) gets at activation. */
export interface FeatureContext {
	readonly extensionContext: vscode.ExtensionContext;
	readonly log: vscode.LogOutputChannel;
	readonly runs: RunService;
}

/**
 * A feature module plugged into activation (src/extension.ts `features`): its command handlers
 * replace the "not implemented yet" ones, and its ChangeActions serve the panel's open-diff,
 * accept and reject messages. Disposed on deactivation.
 */
export interface Feature extends IDisposable {
	readonly commands?: CommandHandlers;
	readonly changeActions?: ChangeActions;
	/** The finding threads a review feature shows (for `MassGenApi.findingThreads`). */
	readonly findingThreads?: () => readonly FindingThread[];
}

export type FeatureFactory = (context: FeatureContext) => Feature;
