import * as vscode from 'vscode';
import { readPreviewBeforeApply } from '../common/settings.js';
import type { AcceptRequest } from '../../protocol/messages.js';
import type { AcceptResult } from './acceptPending.js';
import { type ChangePrompts, windowPrompts } from './changePrompts.js';
import type { PendingChangeSet } from './pendingChangeSet.js';

type Engine = typeof import('./changeEngine.js');

export interface AcceptGateDeps {
	readonly prompts: ChangePrompts;
	readonly log: Pick<vscode.LogOutputChannel, 'info'>;
	readonly engine: () => Promise<Engine>;
}

/**
 * The gate every accept passes (`ChangeReview.accept`): one at a time in this window, a file that
 * would get a secret value the run knows is asked first (the diff shows the real text, the run log
 * `[redacted]`), and a hunk selection that no longer applies is said, not thrown. It owns only the
 * "an accept is running" state; what is accepted and what follows stays with `ChangeReview`.
 */
export class AcceptGate {
	private _busy = false;

	constructor(private readonly _deps: AcceptGateDeps) {}

	/**
	 * Applies `paths` (all pending files when undefined) with `hunks`, then runs `after` on the
	 * result while still holding the gate; nothing is applied when another accept is running or the
	 * user declines writing a secret value.
	 */
	async run(
		pending: PendingChangeSet,
		paths: readonly string[] | undefined,
		hunks: AcceptRequest['hunks'],
		after: (result: AcceptResult) => Promise<void>,
	): Promise<void> {
		if (this._busy) {
			void vscode.window.showInformationMessage(
				vscode.l10n.t('MassGen: the changes are being applied already.'),
			);
			return;
		}
		const marked = (pending.run.result.secretValueFiles ?? []).filter(
			(path) => pending.file(path) && (!paths || paths.includes(path)),
		);
		const { prompts, log } = this._deps;
		const ask = prompts.secretValues ?? windowPrompts.secretValues!;
		if (marked.length > 0 && !(await ask(marked))) {
			log.info(
				`change review: not accepted: ${marked.join(', ')} would get a secret value this run knows; nothing was written`,
			);
			return;
		}
		const engine = await this._deps.engine();
		this._busy = true;
		try {
			const result = await engine.acceptPending({
				pending,
				paths: paths?.filter((path) => pending.file(path)),
				hunks,
				preview: readPreviewBeforeApply(),
				prompts,
			});
			await after(result);
		} catch (error) {
			if (engine.HunkApplyError.is(error)) {
				void vscode.window.showErrorMessage(
					vscode.l10n.t('MassGen: cannot apply that selection: {0}.', error.message),
				);
			} else throw error;
		} finally {
			this._busy = false;
		}
	}
}
