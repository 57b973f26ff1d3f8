import * as vscode from 'vscode';
import { Disposable } from './common/lifecycle.js';
import { readWalkthroughsOpenOnInstall } from './common/settings.js';

/** `contributes.walkthroughs[0].id` in package.json. */
export const walkthroughId = 'gettingStarted';
/** globalState flag: the walkthrough was opened once for this user; never again. */
export const walkthroughOpenedKey = 'massgen.walkthroughOpened';

/**
 * Opens the walkthrough once per user, on the first use of the extension. VS Code opens it itself
 * only when the extension is installed into an open window; installed any other way it never would.
 *
 * It must not take the focus from what the user is doing: the walkthrough page focuses its step
 * as it renders, which closed the first command's quick pick when it was opened at activation.
 * So it waits until no command of ours is running (activation by a command: after that command's
 * inputs are done) and opens at once when a MassGen view is shown (activation by the view). It
 * opens `inactive`: behind the active editor as a tab, shown only in an empty editor area.
 * Off with VS Code's own `workbench.welcomePage.walkthroughs.openOnInstall` and in extension tests.
 */
export class FirstUseWalkthrough extends Disposable {
	private _running = 0;
	private _wanted: boolean;

	constructor(
		private readonly _context: vscode.ExtensionContext,
		views: readonly vscode.TreeView<unknown>[],
		private readonly _log: vscode.LogOutputChannel,
	) {
		super();
		this._wanted =
			!_context.globalState.get<boolean>(walkthroughOpenedKey) &&
			_context.extensionMode !== vscode.ExtensionMode.Test &&
			readWalkthroughsOpenOnInstall();
		if (!this._wanted) return;
		for (const view of views) {
			this._register(view.onDidChangeVisibility((e) => e.visible && this._open()));
		}
		if (views.some((view) => view.visible)) this._open();
	}

	/** Runs one of our commands; the walkthrough never opens while one is running. */
	async around<T>(command: () => Promise<T>): Promise<T> {
		this._running++;
		try {
			return await command();
		} finally {
			this._running--;
			this._open();
		}
	}

	private _open(): void {
		if (!this._wanted || this._running > 0) return;
		this._wanted = false;
		void this._context.globalState.update(walkthroughOpenedKey, true);
		Promise.resolve(
			vscode.commands.executeCommand(
				'workbench.action.openWalkthrough',
				`${this._context.extension.id}#${walkthroughId}`,
				{ inactive: true },
			),
		).catch((error: unknown) => this._log.warn(`walkthrough: ${String(error)}`));
	}
}
