import type * as vscode from 'vscode';
import { ContextSearch } from './contextSearch.js';

/** `#` completion's file list and watcher: made at the first `#`, remade for another folder, dropped with the panel. */
export class ContextSearchSlot implements vscode.Disposable {
	private _search: ContextSearch | undefined;

	constructor(private readonly _log: vscode.LogOutputChannel) {}

	for(folder: vscode.WorkspaceFolder): ContextSearch {
		if (this._search && this._search.folder.uri.toString() !== folder.uri.toString()) this.dispose();
		return (this._search ??= new ContextSearch(folder, this._log));
	}

	dispose(): void {
		this._search?.dispose();
		this._search = undefined;
	}
}
