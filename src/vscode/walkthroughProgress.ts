import * as vscode from 'vscode';
import { contextKeys } from './common/commandIds.js';
import { Disposable } from './common/lifecycle.js';
import type { KeyStore } from './common/secrets.js';
import type { RunService } from './run/runTypes.js';
import { memberChatModels } from './lm/memberChatModels.js';

type StepKey =
	| typeof contextKeys.modelReady
	| typeof contextKeys.teamChosen
	| typeof contextKeys.runCompleted
	| typeof contextKeys.changeAccepted;

export interface WalkthroughProgressDeps {
	readonly keys: Pick<KeyStore, 'getAll'>;
	/** SecretStorage's change event. */
	readonly onDidChangeSecrets: vscode.Event<unknown>;
	readonly runs: Pick<RunService, 'onDidFinishRun'>;
	/** Fires when Accept wrote something. */
	readonly onDidAccept: vscode.Event<unknown>;
	readonly log: vscode.LogOutputChannel;
}

/**
 * The walkthrough's steps complete on what happened, not on a button pressed: each step's
 * `completionEvents` is an `onContext:` key set here once the step's outcome is there — a key
 * stored or Copilot's models present, a team written or chosen, a run completed, a change
 * accepted. VS Code keeps a step ticked once its key was true.
 */
export class WalkthroughProgress extends Disposable {
	private readonly _done = new Set<StepKey>();

	constructor(private readonly _deps: WalkthroughProgressDeps) {
		super();
		this._register(_deps.onDidChangeSecrets(() => void this._checkModels()));
		this._register(vscode.lm.onDidChangeChatModels(() => void this._checkModels()));
		this._register(
			_deps.runs.onDidFinishRun((run) => {
				if (run.result.status === 'completed') this._set(contextKeys.runCompleted);
			}),
		);
		this._register(_deps.onDidAccept(() => this._set(contextKeys.changeAccepted)));
		void this._checkModels();
	}

	/** Build Team or Select Team Config ended; `written` is what it wrote (undefined: nothing, cancelled). */
	teamChosen<T>(written: T): T {
		if (written !== undefined && written !== false) this._set(contextKeys.teamChosen);
		return written;
	}

	/** The steps completed in this window (for the in-host tests). */
	get done(): readonly string[] {
		return [...this._done];
	}

	private async _checkModels(): Promise<void> {
		if (this._done.has(contextKeys.modelReady)) return;
		try {
			const stored = Object.keys(await this._deps.keys.getAll()).length > 0;
			if (stored || (await memberChatModels()).length > 0) this._set(contextKeys.modelReady);
		} catch (error) {
			this._deps.log.warn(`walkthrough: cannot tell whether a model is ready: ${String(error)}`);
		}
	}

	private _set(key: StepKey): void {
		if (this._done.has(key)) return;
		this._done.add(key);
		void vscode.commands.executeCommand('setContext', key, true);
	}
}
