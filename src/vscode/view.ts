import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { AttachmentError } from '../core/context/attachment.js';
import { listRuns } from '../core/logs/listRuns.js';
import type { PastRunSummary } from '../core/logs/pastRunSummary.js';
import { readRunEvents } from '../core/logs/readRunEvents.js';
import { runsDir } from '../core/logs/runLog.js';
import type { AttachmentChip } from '../protocol/attachmentChip.js';
import type { ApprovalDecision, HostMessage } from '../protocol/messages.js';
import { reduceRunEvents } from '../protocol/reduceRun.js';
import { initialRunState, type RunState } from '../protocol/runState.js';
import type { ParseResult } from '../protocol/webviewMessageSchema.js';
import { commandIds, viewTypes } from './commandIds.js';
import { Disposable, toDisposable } from './lifecycle.js';
import { ContextSearch } from './panel/contextSearch.js';
import { dispatchWebviewMessage, type PanelActions } from './panel/dispatchWebviewMessage.js';
import type { RunController } from './run/runController.js';
import type { ChangeActions } from './run/runTypes.js';
import { reportAttachmentProblem } from './run/runMessages.js';
import { chipsToRequests } from './context/chipRequest.js';
import { defaultFolder, folderAt, folderOfRun } from './runFolders.js';
import type { SessionSecrets } from './log.js';
import { openAnswerLink } from './panel/openAnswerLink.js';
import { webviewStrings } from './panel/panelStrings.js';
import { webviewHtml } from './webviewHtml.js';
import { errorMessage } from '../core/util/errorMessage.js';

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
}

/** An approval card's answer, validated (the request may no longer wait: its receiver checks). */
export interface PanelApprovalAnswer {
	readonly requestId: string;
	readonly decision: ApprovalDecision;
	readonly note: string | undefined;
}

const lastRunKey = 'massgen.panel.lastRunId';

/**
 * Hosts the MassGen webview panel (one at a time): ready → snapshot → live event batches
 * (house-style §3.4). The webview keeps no state the host cannot rebuild: after a reload the
 * serializer revives the panel and the snapshot comes from the current run or, failing that, from
 * the last run's `events.jsonl`. Never steals focus unless the user asked for the panel.
 */
export class PanelHost extends Disposable {
	private _panel: vscode.WebviewPanel | undefined;
	private readonly _onDidAnswerApproval = this._register(new vscode.EventEmitter<PanelApprovalAnswer>());
	/** The approvals (`createApprovals`) take the cards' answers from here. */
	readonly onDidAnswerApproval = this._onDidAnswerApproval.event;
	private _panelStore: vscode.Disposable[] = [];
	private _ready = false;
	/** A past run shown read-only instead of the live one. */
	private _viewing: RunState | undefined;
	private _parse: Promise<(raw: unknown) => ParseResult> | undefined;
	private _title = 'MassGen';
	/** Set while the host itself closes the panel (deactivate, window reload): not a user's close. */
	private _closingOurselves = false;
	/** `#` completion's file list and watcher: made at the first `#`, dropped with the panel. */
	private _contextSearch: ContextSearch | undefined;
	/** `addAttachmentChips` waiting for the webview's snapshot. */
	private readonly _readyWaiters: ((ready: boolean) => void)[] = [];

	constructor(private readonly _deps: PanelHostDeps) {
		super();
		const { runs } = _deps;
		this._register(
			toDisposable(() => {
				// Deactivation (e.g. a window reload) disposes the host first: the run is not the
				// user's to lose here, and the serializer restores the panel afterwards.
				this._closingOurselves = true;
				this._panel?.dispose();
			}),
		);
		this._register(
			_deps.changes.onDidChangeChangeSet((changeSet) => this._post({ type: 'change-set', changeSet })),
		);
		this._register(
			// Every run shows in the panel; opening it never takes the keyboard from the user.
			runs.onDidStartRun(() => {
				this._viewing = undefined;
				this.show({ preserveFocus: true });
			}),
		);
		this._register(
			runs.onDidEmitEvents((batch) => {
				if (this._viewing) return;
				void this._remember(batch.runId);
				this._post({ type: 'events', events: batch.events });
			}),
		);
		this._register(runs.onDidFinishRun(() => void this._postRuns()));
	}

	/** The live panel (tests), undefined when closed. */
	get panel(): vscode.WebviewPanel | undefined {
		return this._panel;
	}

	get visible(): boolean {
		return this._panel?.visible ?? false;
	}

	/** The panel is visible and has the keyboard focus. */
	get focused(): boolean {
		return (this._panel?.visible ?? false) && (this._panel?.active ?? false);
	}

	/** The panel's tab title; `MassGen (1 waiting)` stands in for a badge while approvals wait. */
	get title(): string {
		return this._title;
	}

	set title(title: string) {
		this._title = title;
		if (this._panel && this._panel.title !== title) this._panel.title = title;
	}

	/** A message as if the webview had posted it (validated and dispatched the same way; in-host tests). */
	receive(raw: unknown): Promise<void> {
		return this._onMessage(raw);
	}

	/**
	 * Opens or reveals the panel. With `preserveFocus` (a run started from a command) the keyboard
	 * stays where the user was, and a visible panel is left where it is.
	 */
	show(options: { preserveFocus: boolean }): void {
		if (this._panel) {
			if (!(options.preserveFocus && this._panel.visible)) {
				this._panel.reveal(undefined, options.preserveFocus);
			}
			return;
		}
		const column =
			options.preserveFocus && vscode.window.activeTextEditor
				? vscode.ViewColumn.Beside
				: vscode.ViewColumn.Active;
		const panel = vscode.window.createWebviewPanel(
			viewTypes.panel,
			this._title,
			{ viewColumn: column, preserveFocus: options.preserveFocus },
			this._options(),
		);
		this._attach(panel);
		this._deps.log.info('panel opened');
	}

	/** Called by the serializer when VS Code restores the panel after a reload. */
	revive(panel: vscode.WebviewPanel): void {
		if (this._panel) {
			panel.dispose();
			return;
		}
		panel.webview.options = this._options();
		panel.title = this._title;
		this._attach(panel);
		this._deps.log.info('panel restored');
	}

	private _options(): vscode.WebviewPanelOptions & vscode.WebviewOptions {
		const { extensionUri } = this._deps;
		return {
			enableScripts: true,
			enableFindWidget: true,
			localResourceRoots: [
				vscode.Uri.joinPath(extensionUri, 'dist'),
				vscode.Uri.joinPath(extensionUri, 'media'),
			],
		};
	}

	private _attach(panel: vscode.WebviewPanel): void {
		const { extensionUri } = this._deps;
		const media = vscode.Uri.joinPath(extensionUri, 'media');
		const asset = (...path: string[]) =>
			panel.webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', ...path)).toString();
		panel.iconPath = {
			light: vscode.Uri.joinPath(media, 'massgen-light.svg'),
			dark: vscode.Uri.joinPath(media, 'massgen-dark.svg'),
		};
		this._panel = panel;
		this._ready = false;
		this._panelStore = [
			panel.webview.onDidReceiveMessage((raw: unknown) => void this._onMessage(raw)),
			panel.onDidDispose(() => {
				for (const d of this._panelStore) d.dispose();
				this._panelStore = [];
				this._panel = undefined;
				this._ready = false;
				this._viewing = undefined;
				this._contextSearch?.dispose();
				this._contextSearch = undefined;
				for (const resolve of this._readyWaiters.splice(0)) resolve(false);
				this._deps.log.debug('panel closed');
				if (!this._closingOurselves) this._cancelRunOfClosedPanel();
			}),
		];
		try {
			panel.webview.html = webviewHtml({
				cspSource: panel.webview.cspSource,
				nonce: randomBytes(16).toString('base64'),
				scriptUri: asset('webview.js'),
				styleUri: asset('webview.css'),
				codiconsUri: asset('codicons', 'codicon.css'),
				title: 'MassGen',
			});
		} catch (error) {
			// Never leave a blank panel without a word: say what failed (details in the log).
			const message = errorMessage(error);
			this._deps.log.error(
				`panel: cannot render (cspSource ${JSON.stringify(panel.webview.cspSource)}): ${message}`,
			);
			panel.webview.html = fallbackHtml(
				vscode.l10n.t('The MassGen panel could not be rendered: {0}. See the MassGen log.', message),
			);
		}
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
			const parse = await (this._parse ??= import('../protocol/webviewMessageSchema.js').then(
				(m) => m.parseWebviewMessage,
			));
			await dispatchWebviewMessage(raw, parse, this._actions, this._deps.log);
		} catch (error) {
			this._deps.log.error(`panel: ${errorMessage(error)}`);
		}
	}

	private readonly _actions: PanelActions = {
		ready: async () => {
			// A (re)loaded webview has no state: nothing is posted to it before its snapshot.
			this._ready = false;
			await this._postSnapshot();
		},
		ask: async (question, chips) => {
			// A question that does not run goes back to the ask box with its chips and the reason.
			const refused = (reason: string) =>
				this._post({ type: 'ask-refused', question, attachments: chips, reason });
			let attachments;
			try {
				attachments = chipsToRequests(chips);
			} catch (error) {
				if (!(error instanceof AttachmentError)) throw error;
				reportAttachmentProblem(this._deps.log, error, (text) => this._deps.secrets?.text(text) ?? text);
				refused(error.message);
				return;
			}
			// The folder the chips were found in (the shown run's, in a multi-root workspace).
			const folder = this._folder();
			const outcome = await this._deps.runs.tryStart({
				question,
				kind: 'ask',
				...(folder ? { folder: folder.uri } : {}),
				continueConversation: true,
				...(this.shownRunId ? { continueFrom: this.shownRunId } : {}),
				...(attachments.length ? { attachments } : {}),
			});
			if ('refused' in outcome) refused(outcome.reason);
		},
		cancel: () => {
			this._deps.runs.cancel();
		},
		stopAgent: (agentId) => {
			this._deps.runs.stopAgent(agentId);
		},
		openRun: (runId) => this._openRun(runId),
		openDiff: (path, version) => this._deps.changes.openDiff(path, version),
		accept: (request) => this._deps.changes.accept(request),
		reject: () => this._deps.changes.reject(),
		revertRun: async (runId) => {
			await vscode.commands.executeCommand(commandIds.revertRun, runId);
		},
		selectHunks: (path, ids, selected) => this._deps.changes.selectHunks(path, ids, selected),
		approval: (requestId, decision, note) => this._onDidAnswerApproval.fire({ requestId, decision, note }),
		searchContext: async (query, requestId) => {
			const search = this._searchSession();
			const items = search
				? await search.search(query).catch((error: unknown) => this._noResults(error))
				: [];
			this._post({ type: 'context-results', requestId, items });
		},
		pickContext: async () => {
			const chips = await this._deps.pickContext?.();
			if (chips?.length) this._post({ type: 'chips-added', chips });
		},
		dropUris: async (uris) => {
			const search = this._searchSession();
			if (!search) return;
			this._post({ type: 'chips-added', ...(await search.fromUris(uris)) });
		},
		// A citation (validated http(s) only): opened once the user confirms.
		openLink: async (url) => {
			await openAnswerLink(url, this._deps.log);
		},
	};

	/**
	 * Adds chips to the ask box (the "Add Context" command): reveals the panel and posts them once
	 * it is ready (a panel opened just now gets them after its snapshot).
	 */
	async addAttachmentChips(chips: readonly AttachmentChip[]): Promise<void> {
		this.show({ preserveFocus: false });
		if (!this._ready && !(await this._whenReady())) {
			this._deps.log.warn('ask box: the panel closed before the chips could be added');
			return;
		}
		this._post({ type: 'chips-added', chips });
	}

	/** True once the webview has its snapshot; false when the panel closes first. */
	private _whenReady(): Promise<boolean> {
		return new Promise((resolve) => this._readyWaiters.push(resolve));
	}

	private _searchSession(): ContextSearch | undefined {
		const folder = this._folder();
		if (!folder || !this._panel) return undefined;
		if (this._contextSearch && this._contextSearch.folder.uri.toString() !== folder.uri.toString()) {
			this._contextSearch.dispose();
			this._contextSearch = undefined;
		}
		return (this._contextSearch ??= new ContextSearch(folder, this._deps.log));
	}

	/** The folder the panel is about (multi-root): the shown run's, else the default one. */
	private _folder(): vscode.WorkspaceFolder | undefined {
		const runId = this.shownRunId;
		const state = this._viewing ?? this._deps.runs.state;
		return folderAt(state?.workspace) ?? (runId ? folderOfRun(runId) : undefined) ?? defaultFolder();
	}

	private _noResults(error: unknown): AttachmentChip[] {
		this._deps.log.warn(`ask box: cannot list the workspace's files: ${errorMessage(error)}`);
		return [];
	}

	/** Shows a run in the panel (the Runs view's "Open in Panel"), as the panel's past-runs list does. */
	async openRun(runId: string): Promise<void> {
		this.show({ preserveFocus: false });
		await this._openRun(runId);
	}

	/** The run the panel shows (also the one it restores after a reload): its follow-ups continue that run's session. */
	get shownRunId(): string | undefined {
		return this._viewing?.runId ?? this._deps.runs.state?.runId ?? this._deps.memento.get<string>(lastRunKey);
	}

	private async _openRun(runId: string): Promise<void> {
		const live = this._deps.runs.state;
		if (live && live.runId === runId) {
			this._viewing = undefined;
			await this._postSnapshot();
			return;
		}
		const state = await this._readRun(runId);
		if (!state) {
			void vscode.window.showErrorMessage(
				vscode.l10n.t('MassGen: run {0} has no readable events.jsonl.', runId),
			);
			return;
		}
		this._viewing = state;
		await this._postSnapshot();
		await this._remember(runId);
	}

	/** Remembers the run the panel shows (workspace state), for the snapshot after a reload. */
	private _remember(runId: string): Thenable<void> {
		if (this._deps.memento.get<string>(lastRunKey) === runId) return Promise.resolve();
		return this._deps.memento.update(lastRunKey, runId);
	}

	private async _readRun(runId: string): Promise<RunState | undefined> {
		const root = folderOfRun(runId)?.uri.fsPath;
		if (!root) return undefined;
		try {
			const events = await readRunEvents(join(runsDir(root), runId));
			return events.length ? reduceRunEvents(initialRunState(), events) : undefined;
		} catch (error) {
			this._deps.log.warn(`panel: cannot read run ${runId}: ${errorMessage(error)}`);
			return undefined;
		}
	}

	/**
	 * Posts the whole state, then lets live batches through. The state is read after the last
	 * await: a batch that arrived meanwhile is in it (and was not posted), so the webview neither
	 * misses events nor has them overwritten by an older snapshot.
	 */
	private async _postSnapshot(): Promise<void> {
		const runs = await this._pastRuns();
		let fallback: RunState | undefined;
		const last = this._deps.memento.get<string>(lastRunKey);
		if (!this._viewing && !this._deps.runs.state && last) fallback = await this._readRun(last);
		const state = this._viewing ?? this._deps.runs.state ?? fallback ?? null;
		this._ready = this._panel !== undefined;
		this._post({ type: 'snapshot', state, runs, strings: webviewStrings(vscode) });
		this._post({ type: 'change-set', changeSet: this._deps.changes.changeSet() });
		if (this._ready) for (const resolve of this._readyWaiters.splice(0)) resolve(true);
	}

	private async _postRuns(): Promise<void> {
		this._post({ type: 'runs', runs: await this._pastRuns() });
	}

	private async _pastRuns(): Promise<PastRunSummary[]> {
		const root = this._folder()?.uri.fsPath;
		if (!root) return [];
		try {
			return await listRuns(root);
		} catch (error) {
			this._deps.log.warn(`panel: cannot list runs: ${errorMessage(error)}`);
			return [];
		}
	}

	private _post(message: HostMessage): void {
		if (!this._panel || !this._ready) return;
		const safe = this._deps.secrets ? this._deps.secrets.json(message) : message;
		void this._panel.webview
			.postMessage(safe)
			.then(undefined, (error: unknown) => this._deps.log.warn(`panel: post failed: ${String(error)}`));
	}
}

/** A static page (no script at all) for when the panel itself cannot be built. */
function fallbackHtml(text: string): string {
	const escaped = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
	return `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'"><title>MassGen</title></head><body><p id="panel-error">${escaped}</p></body></html>`;
}
