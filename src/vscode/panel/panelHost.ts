import * as vscode from 'vscode';
import type { PastRunSummary } from '../../contract/pastRunSummary.js';
import { errorMessage } from '../../core/util/errorMessage.js';
import type { AttachmentChip } from '../../protocol/attachmentChip.js';
import type { ApprovalDecision } from '../../protocol/messages.js';
import type { ParseResult } from '../../protocol/webviewMessageSchema.js';
import type { ShownQuestions } from '../common/shownQuestions.js';
import { Disposable } from '../common/lifecycle.js';
import type { SessionSecrets } from '../common/log.js';
import { readChangeOutcomes } from './changeOutcomes.js';
import { ContextSearchSlot } from './contextSearchSlot.js';
import { dispatchWebviewMessage, type PanelActions } from './dispatchWebviewMessage.js';
import { panelActions } from './panelActions.js';
import { webviewStrings } from './panelStrings.js';
import { PanelWebview } from './panelWebview.js';
import { ShownRun } from './shownRun.js';
import type { RunController } from '../run/runController.js';
import type { ChangeActions } from '../run/runTypes.js';

export interface PanelHostDeps {
	readonly extensionUri: vscode.Uri;
	readonly log: vscode.LogOutputChannel;
	readonly runs: RunController;
	/** The change review: open diff, accept, reject, hunk selection and the change-set view. */
	readonly changes: ChangeActions;
	/** Remembers the run the panel showed last, so a reloaded window shows it again. */
	readonly memento: vscode.Memento;
	/** Every message to the webview passes through them (live events are redacted already; past runs, change sets and late errors too). */
	readonly secrets?: SessionSecrets;
	/** The ask box's "+": the context picker (chips to add; undefined when the user cancelled). */
	readonly pickContext?: () => Promise<readonly AttachmentChip[] | undefined>;
	/** Where the link question is recorded when asked (the in-host tests read it). */
	readonly questions?: ShownQuestions;
}

/** An approval card's answer, validated (the request may no longer wait: its receiver checks). */
export interface PanelApprovalAnswer {
	readonly requestId: string;
	readonly decision: ApprovalDecision;
	readonly note: string | undefined;
}

/**
 * Hosts the MassGen webview panel (one at a time): ready → snapshot → live event batches
 * (docs/editor.md). The webview keeps no state the host cannot rebuild: after a reload the
 * serializer revives the panel and the snapshot comes from the current run or, failing that, from
 * the last run's `events.jsonl`. Never steals focus unless the user asked for the panel.
 *
 * Wires what owns the state: the webview and its gate (`PanelWebview`), the run it shows
 * (`ShownRun`), `#` completion (`ContextSearchSlot`), and what each message does (`panelActions`).
 */
export class PanelHost extends Disposable {
	private readonly _webview: PanelWebview;
	private readonly _shown: ShownRun;
	private readonly _search: ContextSearchSlot;
	private readonly _actions: PanelActions;
	private readonly _onDidAnswerApproval = this._register(new vscode.EventEmitter<PanelApprovalAnswer>());
	/** The approvals (`createApprovals`) take the cards' answers from here. */
	readonly onDidAnswerApproval = this._onDidAnswerApproval.event;
	private _parse: Promise<(raw: unknown) => ParseResult> | undefined;

	constructor(private readonly _deps: PanelHostDeps) {
		super();
		const { runs, log } = _deps;
		this._shown = new ShownRun(runs, _deps.memento, log);
		this._search = this._register(new ContextSearchSlot(log));
		this._webview = this._register(
			new PanelWebview({
				extensionUri: _deps.extensionUri,
				log,
				...(_deps.secrets ? { secrets: _deps.secrets } : {}),
				onMessage: (raw) => void this._onMessage(raw),
				onClosed: (byUser) => {
					this._shown.showLive();
					this._search.dispose();
					if (byUser) this._cancelRunOfClosedPanel();
				},
			}),
		);
		this._actions = panelActions({
			..._deps,
			panel: {
				snapshot: () => this._postSnapshot(),
				openRun: (runId) => this._openRun(runId),
				post: (message) => this._webview.post(message),
				shownRunId: () => this.shownRunId,
				folder: () => this._shown.folder(),
				search: () => {
					const folder = this._shown.folder();
					return folder && this._webview.panel ? this._search.for(folder) : undefined;
				},
				answerApproval: (requestId, decision, note) =>
					this._onDidAnswerApproval.fire({ requestId, decision, note }),
				closeGate: () => this._webview.closeGate(),
				outcomesChanged: () => this._postOutcomes(),
			},
		});
		this._register(
			_deps.changes.onDidChangeChangeSet((changeSet) => {
				this._webview.post({ type: 'change-set', changeSet });
				void this._postOutcomes();
			}),
		);
		this._register(
			// Every run shows in the panel; opening it never takes the keyboard from the user.
			runs.onDidStartRun(() => {
				this._shown.showLive();
				this.show({ preserveFocus: true });
			}),
		);
		this._register(
			runs.onDidEmitEvents((batch) => {
				if (this._shown.viewing) return;
				void this._shown.remember(batch.runId);
				this._webview.post({ type: 'events', events: batch.events });
			}),
		);
		this._register(runs.onDidFinishRun(() => void this._postRuns()));
	}

	/** The live panel (tests), undefined when closed. */
	get panel(): vscode.WebviewPanel | undefined {
		return this._webview.panel;
	}

	get visible(): boolean {
		return this._webview.visible;
	}

	/** The panel is visible and has the keyboard focus. */
	get focused(): boolean {
		return this._webview.focused;
	}

	/** The panel's tab title; `MassGen (1 waiting)` stands in for a badge while approvals wait. */
	get title(): string {
		return this._webview.title;
	}

	set title(title: string) {
		this._webview.title = title;
	}

	/** A message as if the webview had posted it (validated and dispatched the same way; in-host tests). */
	receive(raw: unknown): Promise<void> {
		return this._onMessage(raw);
	}

	/** Opens or reveals the panel (`PanelWebview.show`). */
	show(options: { preserveFocus: boolean }): void {
		this._webview.show(options);
	}

	/** Called by the serializer when VS Code restores the panel after a reload. */
	revive(panel: vscode.WebviewPanel): void {
		this._webview.revive(panel);
	}

	/**
	 * Adds chips to the ask box (the "Add Context" command): reveals the panel and posts them once
	 * it is ready (a panel opened just now gets them after its snapshot).
	 */
	async addAttachmentChips(chips: readonly AttachmentChip[]): Promise<void> {
		this.show({ preserveFocus: false });
		if (!(await this._webview.whenReady())) {
			this._deps.log.warn('ask box: the panel closed before the chips could be added');
			return;
		}
		this._webview.post({ type: 'chips-added', chips });
	}

	/** Shows a run in the panel (the Runs view's "Open in Panel"), as the panel's past-runs list does. */
	async openRun(runId: string): Promise<void> {
		this.show({ preserveFocus: false });
		await this._openRun(runId);
	}

	/** The run the panel shows (also the one it restores after a reload): its follow-ups continue that run's session. */
	get shownRunId(): string | undefined {
		return this._shown.runId;
	}

	/**
	 * The user closed the panel (not merely hid it: a hidden panel is not disposed): its run is
	 * cancelled the way Cancel Run does it (every request aborted, nothing written, partial log kept).
	 */
	private _cancelRunOfClosedPanel(): void {
		if (!this._deps.runs.cancel()) return;
		this._deps.log.info('panel closed during a run: run cancelled');
		void vscode.window.showInformationMessage(
			vscode.l10n.t('MassGen: run cancelled because its panel was closed.'),
		);
	}

	private async _onMessage(raw: unknown): Promise<void> {
		try {
			const parse = await (this._parse ??= import('../../protocol/webviewMessageSchema.js').then(
				(m) => m.parseWebviewMessage,
			));
			await dispatchWebviewMessage(raw, parse, this._actions, this._deps.log);
		} catch (error) {
			this._deps.log.error(`panel: ${errorMessage(error)}`);
		}
	}

	private async _openRun(runId: string): Promise<void> {
		const shown = await this._shown.open(runId);
		if (shown === 'unreadable') {
			// The run id only in the log: the message says what went wrong in words.
			this._deps.log.warn(`panel: run ${runId} has no readable events.jsonl`);
			void vscode.window.showErrorMessage(
				vscode.l10n.t('MassGen: that run cannot be shown: its event log is missing or unreadable.'),
			);
			return;
		}
		await this._postSnapshot();
		if (shown === 'past') await this._shown.remember(runId);
	}

	/**
	 * Posts the whole state, then lets live batches through. The state is read after the last
	 * await: a batch that arrived meanwhile is in it (and was not posted), so the webview neither
	 * misses events nor has them overwritten by an older snapshot.
	 */
	private async _postSnapshot(): Promise<void> {
		const runs = await this._pastRuns();
		const fallback = await this._shown.lastShown();
		const state = this._shown.current() ?? fallback ?? null;
		this._webview.deliverSnapshot(() => {
			this._webview.post({ type: 'snapshot', state, runs, strings: webviewStrings(vscode) });
			this._webview.post({ type: 'change-set', changeSet: this._deps.changes.changeSet() });
		});
		await this._postOutcomes();
	}

	/** What became of the shown run's files (accepted, rejected…), from its record; nothing when it has none. */
	private async _postOutcomes(): Promise<void> {
		const runId = this._shown.runId;
		const root = this._shown.folder()?.uri.fsPath;
		if (!runId || !root) return;
		try {
			const outcomes = await readChangeOutcomes(root, runId);
			if (outcomes.files.length > 0 && this._shown.runId === runId) {
				this._webview.post({ type: 'change-outcomes', ...outcomes });
			}
		} catch (error) {
			this._deps.log.warn(`panel: cannot read what became of run ${runId}'s changes: ${errorMessage(error)}`);
		}
	}

	private async _postRuns(): Promise<void> {
		this._webview.post({ type: 'runs', runs: await this._pastRuns() });
	}

	private async _pastRuns(): Promise<PastRunSummary[]> {
		const root = this._shown.folder()?.uri.fsPath;
		if (!root) return [];
		try {
			// The run store's readers check with zod: loaded at the first list, not at activation.
			const { listRuns } = await import('../../core/runStore/listRuns.js');
			return await listRuns(root);
		} catch (error) {
			this._deps.log.warn(`panel: cannot list runs: ${errorMessage(error)}`);
			return [];
		}
	}
}
