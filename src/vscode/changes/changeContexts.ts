import * as vscode from 'vscode';
import { contextKeys } from '../common/commandIds.js';
import { activeChange, activeChangesEditorRun } from './diffTabs.js';
import type { PendingSets } from './pendingSets.js';

/**
 * The context keys of the change review's editor-title and palette actions: anything pending, a
 * pending run's diff or multi-file view active. Each key is set only when its value changes.
 */
export class ChangeContexts {
	/** The context keys as last set. */
	private readonly _values = new Map<string, boolean>();

	constructor(private readonly _sets: PendingSets) {}

	update(): void {
		const active = activeChange()?.runId;
		const editorRun = activeChangesEditorRun();
		this._set(contextKeys.hasPendingChanges, this._sets.size > 0);
		this._set(contextKeys.changeDiffActive, active !== undefined && this._sets.get(active) !== undefined);
		this._set(
			contextKeys.changesEditorActive,
			editorRun !== undefined && this._sets.get(editorRun) !== undefined,
		);
	}

	private _set(key: string, value: boolean): void {
		if (this._values.get(key) === value) return;
		this._values.set(key, value);
		void vscode.commands.executeCommand('setContext', key, value);
	}
}
