import * as vscode from 'vscode';
import { readPreviewBeforeApply } from '../common/settings.js';
import type { AnswerChanges } from '../../core/changes/changeSet.js';
import type { ChangeSetView } from '../../protocol/changeSetView.js';
import type { AcceptRequest } from '../../protocol/messages.js';
import { contextKeys } from '../common/commandIds.js';
import { Disposable } from '../common/lifecycle.js';
import type { ChangeActions, FinishedRun, RunService } from '../run/runTypes.js';
import type { AcceptResult } from './acceptPending.js';
import { reportNotWritten, reportWritten } from './acceptParts.js';
import { AcceptWatch } from './acceptWatch.js';
import { ChangeNotice, noticeOf } from './changeNotice.js';
import { ChangeContentProvider } from './changeContentProvider.js';
import { type ChangePrompts, windowPrompts } from './changePrompts.js';
import { ChangeStatusBar } from './changeStatusBar.js';
import { changeScheme, isChangeVersion, parseChangeUri } from './changeUri.js';
import {
	activeChange,
	closeChangeTabs,
	isChangesEditorTab,
	openChangeDiff,
	openChangesEditor,
} from './diffTabs.js';
import { fileInPlay } from './fileInPlay.js';
import { playHints } from './playHints.js';
import { HunkLenses } from './hunkLenses.js';
import type { FileOutcome, PendingChangeSet } from './pendingChangeSet.js';
import { PendingFileTracker } from './pendingFileTracker.js';
import { errorDetail } from '../common/log.js';

export interface ChangeReviewDeps {
	readonly runs: RunService;
	readonly log: vscode.LogOutputChannel;
	/** Replaced in tests (modal conflict question, end-of-run notification). */
	readonly prompts?: ChangePrompts;
	/** How long the user must not have typed before a diff opens by itself (ms). */
	readonly idleMs?: number;
}

/**
 * Review and acceptance of the winner's changes (docs/changes.md): keeps the pending change set, serves
 * its versions as virtual documents, opens the diffs without taking the keyboard, and applies the
 * accepted part as one WorkspaceEdit after the base-hash check (3-way merge on a mismatch).
 */
export class ChangeReview extends Disposable implements ChangeActions {
	private readonly _provider = this._register(new ChangeContentProvider());
	private readonly _onDidChangeChangeSet = this._register(new vscode.EventEmitter<ChangeSetView | null>());
	readonly onDidChangeChangeSet = this._onDidChangeChangeSet.event;
	private readonly _onDidAccept = this._register(new vscode.EventEmitter<readonly string[]>());
	/** Accept wrote files (their paths): the walkthrough's "Review and accept a change" is done. */
	readonly onDidAccept = this._onDidAccept.event;
	private readonly _prompts: ChangePrompts;
	private _pending: PendingChangeSet | undefined;
	private _busy = false;
	private _diffActive = false;
	private _changesEditorActive = false;
	private readonly _notice = new ChangeNotice();
	private readonly _accepts = this._register(new AcceptWatch());
	/** The change set whose last accept `_accepts` follows: an undo puts its files back into it. */
	private _accepted: PendingChangeSet | undefined;
	private readonly _status = this._register(new ChangeStatusBar());
	/** What the last accept did besides writing (merged, conflict markers, left to review), for the status bar. */
	private _acceptDetail = '';
	private readonly _lenses = this._register(new HunkLenses((runId) => this._provider.set(runId)));
	private _engine: Promise<typeof import('./changeEngine.js')> | undefined;
	private readonly _files = this._register(
		new PendingFileTracker(
			() => this._pending,
			() => this._fireChanged(),
		),
	);

	constructor(private readonly _deps: ChangeReviewDeps) {
		super();
		this._prompts = _deps.prompts ?? windowPrompts;
		this._register(vscode.workspace.registerTextDocumentContentProvider(changeScheme, this._provider));
		this._register(
			_deps.runs.onDidFinishRun(
				(run) => void this._onFinished(run).catch((error: unknown) => this._fail('review', error)),
			),
		);
		this._register(vscode.window.tabGroups.onDidChangeTabs(() => this._updateDiffContext()));
		this._register(vscode.window.tabGroups.onDidChangeTabGroups(() => this._updateDiffContext()));
		// Undo or Redo of an accept (or Revert Run) changes what is pending, what the status bar says and
		// whether a notification still stands.
		this._register(this._accepts.onDidChange(() => this._followAccept()));
	}

	/** The change set's status bar text (undefined: hidden), for tests. */
	get statusText(): string | undefined {
		return this._status.text;
	}

	/** The end-of-run notification showing now (its message and what its links carry), for tests. */
	get notice(): ChangeNotice['current'] {
		return this._notice.current;
	}

	/** The pending change set (tests and the panel); undefined when nothing is pending. */
	get pending(): PendingChangeSet | undefined {
		return this._pending;
	}

	changeSet(): ChangeSetView | null {
		return this._pending?.view() ?? null;
	}

	async openDiff(path: string, version = 'proposed'): Promise<void> {
		const pending = this._pending;
		if (!pending?.anyFile(path) || !isChangeVersion(version) || version === 'base') {
			this._deps.log.warn(`change review: no diff for ${path} (${version})`);
			return;
		}
		await openChangeDiff(pending, path, version, { preserveFocus: true, preview: true });
	}

	/** The multi-file view of every pending file. `arg`: what a notification's link carries. */
	async review(arg?: unknown): Promise<void> {
		if (this._staleNotice(arg)) return;
		// Review from the notification: the multi-file diff takes over, the notification goes.
		if (noticeOf(arg)) this._notice.dismiss();
		if (this._pending) await openChangesEditor(this._pending);
		else this._nothingPending();
	}

	/** Accept Changes (palette, editor title, a notification's link): every pending file. */
	async acceptAll(arg?: unknown): Promise<void> {
		if (this._staleNotice(arg)) return;
		await this.accept(noticeOf(arg) ? { runId: noticeOf(arg)!.runId } : {});
	}

	/** Reject Changes (palette, editor title, a notification's link): every pending file. */
	async rejectAll(arg?: unknown): Promise<void> {
		if (this._staleNotice(arg)) return;
		await this.reject();
	}

	/** A hunk's Accept or Reject in the diff (`HunkLenses`): the panel's checkbox, for the file of `uri`. */
	selectHunkIn(uri: unknown, id: unknown, selected: boolean): void {
		const parsed = uri instanceof vscode.Uri ? parseChangeUri(uri) : undefined;
		if (!parsed || typeof id !== 'string' || parsed.runId !== this._pending?.runId) {
			this._deps.log.warn('change review: that change is no longer pending');
			return;
		}
		this.selectHunks(parsed.path, [id], selected);
	}

	selectHunks(path: string, ids: readonly string[], selected: boolean): void {
		const pending = this._pending;
		if (!pending?.select(path, ids, selected)) return;
		this._provider.proposedChanged(pending.runId, path);
		this._fireChanged();
	}

	async accept(request: AcceptRequest = {}): Promise<void> {
		const { paths, hunks, runId } = request;
		const pending = this._pending;
		if (!pending) return this._nothingPending();
		if (runId !== undefined && runId !== pending.runId) {
			this._deps.log.warn(
				`change review: accept for run ${runId} ignored; the pending changes are from run ${pending.runId}`,
			);
			return;
		}
		const unknown = (paths ?? []).filter((path) => !pending.file(path));
		if (unknown.length > 0) this._deps.log.warn(`change review: not pending: ${unknown.join(', ')}`);
		if (paths && unknown.length === paths.length) return;
		if (this._busy) {
			void vscode.window.showInformationMessage(
				vscode.l10n.t('MassGen: the changes are being applied already.'),
			);
			return;
		}
		// The diff shows the real text, the run log `[redacted]`: writing a known secret is asked first.
		const marked = (pending.run.result.secretValueFiles ?? []).filter(
			(path) => pending.file(path) && (!paths || paths.includes(path)),
		);
		const ask = this._prompts.secretValues ?? windowPrompts.secretValues!;
		if (marked.length > 0 && !(await ask(marked))) {
			this._deps.log.info(
				`change review: not accepted: ${marked.join(', ')} would get a secret value this run knows; nothing was written`,
			);
			return;
		}
		const engine = await this._loadEngine();
		this._busy = true;
		try {
			const result = await engine.acceptPending({
				pending,
				paths: paths?.filter((path) => pending.file(path)),
				hunks,
				preview: readPreviewBeforeApply(),
				prompts: this._prompts,
			});
			await this._afterAccept(pending, result);
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

	async reject(paths?: readonly string[]): Promise<void> {
		const pending = this._pending;
		if (!pending) return this._nothingPending();
		const gone = paths
			? paths.filter((path) => pending.file(path))
			: pending.files().map((file) => file.path);
		this._deps.log.info(
			`change review: rejected ${gone.join(', ')} of run ${pending.runId}; nothing was written`,
		);
		await this._recordReject(pending, gone);
		await this._resolve(pending, gone, 'rejected');
	}

	/** Appends a reject entry to the run's record (the Runs view and follow-ups read it); a failure is logged. */
	private async _recordReject(pending: PendingChangeSet, paths: readonly string[]): Promise<void> {
		if (paths.length === 0) return;
		const { appendChangeLog } = await this._loadEngine();
		await appendChangeLog(pending.run.runDir, { kind: 'reject', by: 'editor', paths: [...paths] }).catch(
			(error: unknown) => this._fail('record', error),
		);
	}

	/** Accept File / Reject File: the file of the diff the action is on, else the active diff, else a pick. */
	async acceptFile(arg?: unknown): Promise<void> {
		const path = await this._fileOf(arg, vscode.l10n.t('Accept which file?'));
		const ids = path === undefined ? undefined : this._pending?.acceptFileHunks(path);
		if (path) await this._thenNext(path, () => this.accept({ paths: [path], hunks: ids && [{ path, ids }] }));
	}

	async rejectFile(arg?: unknown): Promise<void> {
		const path = await this._fileOf(arg, vscode.l10n.t('Reject which file?'));
		if (path) await this._thenNext(path, () => this.reject([path]));
	}

	/** Resolves one file; when its diff was the active editor, the next pending file's diff takes its place. */
	private async _thenNext(path: string, resolve: () => Promise<void>): Promise<void> {
		const pending = this._pending;
		const active = activeChange();
		const wasActive = pending !== undefined && active?.runId === pending.runId && active.path === path;
		const at = pending?.files().findIndex((file) => file.path === path) ?? -1;
		await resolve();
		if (!wasActive || this._pending !== pending || pending.file(path)) return;
		const rest = pending.files();
		const next = rest[Math.min(at, rest.length - 1)];
		if (next) await openChangeDiff(pending, next.path, 'proposed', { preserveFocus: false, preview: true });
	}

	/** Opens the next (or previous) pending file's diff, wrapping around. */
	async step(by: 1 | -1): Promise<void> {
		const pending = this._pending;
		if (!pending || pending.isEmpty) return this._nothingPending();
		const files = pending.files();
		const current = activeChange();
		const at = current?.runId === pending.runId ? files.findIndex((file) => file.path === current.path) : -1;
		const next = files[(at + by + files.length) % files.length]!;
		await openChangeDiff(pending, next.path, 'proposed', { preserveFocus: false, preview: true });
	}

	private async _onFinished(run: FinishedRun): Promise<void> {
		const { result } = run;
		if (result.changes.length === 0 || (result.status !== 'completed' && result.status !== 'timeout')) return;
		const engine = await this._loadEngine();
		const answers: AnswerChanges[] = [...(result.answerChanges ?? [])];
		// The bases are the run snapshot's (carried by each change): what the team read, not the disk now.
		const set = engine.buildReviewChangeSet({
			runId: result.runId,
			winner: result.winner,
			changes: result.changes,
			answers,
		});
		const previous = this._pending;
		const pending = new engine.PendingChangeSet(run, set, answers);
		this._provider.add(pending);
		this._pending = pending;
		this._accepted = undefined;
		this._accepts.clear();
		if (previous) {
			this._deps.log.info(
				`change review: run ${previous.runId}'s pending changes were replaced by run ${pending.runId}'s`,
			);
			// Its record says so: the Runs view and sessions no longer call them pending, retention may prune it.
			await engine
				.appendChangeLog(previous.run.runDir, {
					kind: 'supersede',
					by: 'editor',
					byRun: pending.runId,
				})
				.catch((error: unknown) => this._fail('record', error));
			await closeChangeTabs(previous.runId);
		}
		this._files.watch(pending);
		for (const file of pending.files()) await this._files.refresh(pending.uri(file.path));
		this._setPendingContext(true);
		this._moved();
		const winner = result.winner?.agentId ?? vscode.l10n.t('the team');
		const count = set.files.length;
		if (result.secretValueFiles?.length) {
			this._deps.log.warn(
				`change review: run ${result.runId}: ${result.secretValueFiles.join(', ')} would get a secret value this run knows (Accept asks first)`,
			);
		}
		this._deps.log.info(
			`change review: run ${result.runId}: ${count} file(s) changed by ${winner}: ${set.files.map((f) => `${f.kind} ${f.path}`).join(', ')}`,
		);
		await this._files.whenUserIdle(this._deps.idleMs ?? 1500);
		if (this._pending !== pending) return;
		// After a selection review the reviewed code and its comment threads stay in view: the fix opens beside it.
		const viewColumn = run.request.kind === 'review' ? vscode.ViewColumn.Beside : undefined;
		const first = fileInPlay(
			pending.files().map((file) => file.path),
			playHints(run),
		);
		if (first !== undefined) {
			await openChangeDiff(pending, first, 'proposed', { preserveFocus: true, preview: true, viewColumn });
		}
		if (this._pending !== pending || pending.isEmpty) return;
		void this._notice
			.show(this._prompts, pending.runId, pending.files().length, winner)
			.catch((error: unknown) => this._fail('notification', error));
	}

	/**
	 * Whether a command came from a notification's link that no longer stands for what is pending;
	 * such a click does nothing (it never applies anything) and says so.
	 */
	private _staleNotice(arg: unknown): boolean {
		const from = noticeOf(arg);
		if (!from || !this._notice.isStale(from, this._pending?.runId)) return false;
		this._deps.log.info(
			`change review: a notification of run ${from.runId} was out of date (state ${from.notice}, now ${this._notice.generation}); nothing was done`,
		);
		void vscode.window.showInformationMessage(
			vscode.l10n.t('MassGen: that notification was out of date; nothing was done.'),
		);
		return true;
	}

	private async _afterAccept(pending: PendingChangeSet, result: AcceptResult): Promise<void> {
		const { log } = this._deps;
		if (reportNotWritten(result, pending.runId, log)) return;
		if (result.status === 'rerun') {
			log.info(`change review: re-running the team on the current files (run ${pending.runId} discarded)`);
			await this._recordReject(
				pending,
				pending.files().map((file) => file.path),
			);
			await this._resolve(
				pending,
				pending.files().map((file) => file.path),
				'rejected',
			);
			void this._deps.runs.start(pending.run.request);
			return;
		}
		this._acceptDetail = reportWritten(result, pending.runId, log);
		await this._resolve(pending, result.resolved, 'accepted');
		if (result.written.length > 0) this._onDidAccept.fire(result.written);
		for (const path of result.marked) {
			await vscode.window.showTextDocument(pending.uri(path), { preview: false });
		}
		if (result.landed.length > 0) {
			this._accepted = pending;
			this._accepts.follow({ runId: pending.runId, folder: pending.run.folder.uri, files: result.landed });
		}
	}

	/**
	 * Drops files from the pending set (accepted or rejected) and closes their diffs (a multi-file
	 * view stays until nothing is pending: its lenses say what became of each file).
	 */
	private async _resolve(
		pending: PendingChangeSet,
		paths: readonly string[],
		outcome: FileOutcome,
	): Promise<void> {
		pending.remove(paths, outcome);
		if (this._pending === pending && pending.isEmpty) {
			this._pending = undefined;
			this._files.watch(undefined);
			this._setPendingContext(false);
			this._moved();
			await closeChangeTabs(pending.runId);
		} else {
			this._moved();
			await closeChangeTabs(pending.runId, new Set(paths));
		}
	}

	/**
	 * The accepted files as they stand now: one that is back as it was before the accept (Undo,
	 * Revert Run) is pending again, offered with the rest (its selection as it was); Redo takes it
	 * out again as accepted. A file edited since is left as it is. No notification is shown again:
	 * the user undid it themselves, and the panel, the status bar and the diff's lenses offer it.
	 */
	private _followAccept(): void {
		const set = this._accepted;
		if (set && (this._pending === undefined || this._pending === set)) {
			const back = set.restore(this._accepts.undonePaths);
			const again = this._accepts.appliedPaths.filter((path) => set.file(path));
			set.remove(again, 'accepted');
			if (back.length > 0 || again.length > 0) {
				this._deps.log.info(
					`change review: run ${set.runId}: ${back.length ? `pending again (accept undone): ${back.join(', ')}` : ''}${back.length && again.length ? '; ' : ''}${again.length ? `accepted again (redo): ${again.join(', ')}` : ''}`,
				);
				const was = this._pending;
				this._pending = set.isEmpty ? undefined : set;
				this._files.watch(this._pending);
				if (this._pending !== was) this._setPendingContext(this._pending !== undefined);
				for (const path of back) void this._files.refresh(set.uri(path));
			}
		}
		this._moved();
	}

	private async _fileOf(arg: unknown, question: string): Promise<string | undefined> {
		const pending = this._pending;
		if (!pending) return void this._nothingPending();
		const fromUri = arg instanceof vscode.Uri ? parseChangeUri(arg) : undefined;
		const given = fromUri ?? activeChange();
		if (given && given.runId === pending.runId && pending.file(given.path)) return given.path;
		if (typeof arg === 'string' && pending.file(arg)) return arg;
		const picked = await vscode.window.showQuickPick(
			pending.files().map((file) => ({ label: file.path, description: file.kind })),
			{ placeHolder: question },
		);
		return picked?.label;
	}

	private _loadEngine(): Promise<typeof import('./changeEngine.js')> {
		return (this._engine ??= import('./changeEngine.js'));
	}

	private _updateDiffContext(): void {
		const active = activeChange();
		const runId = this._pending?.runId;
		const value = active !== undefined && active.runId === runId;
		if (value !== this._diffActive) {
			this._diffActive = value;
			void vscode.commands.executeCommand('setContext', contextKeys.changeDiffActive, value);
		}
		const multi =
			runId !== undefined && isChangesEditorTab(vscode.window.tabGroups.activeTabGroup.activeTab, runId);
		if (multi !== this._changesEditorActive) {
			this._changesEditorActive = multi;
			void vscode.commands.executeCommand('setContext', contextKeys.changesEditorActive, multi);
		}
	}

	private _setPendingContext(value: boolean): void {
		void vscode.commands.executeCommand('setContext', contextKeys.hasPendingChanges, value);
		this._updateDiffContext();
	}

	private _fireChanged(): void {
		const pending = this._pending;
		this._status.showFor(pending, this._accepts, this._acceptDetail);
		this._lenses.refresh();
		this._onDidChangeChangeSet.fire(this.changeSet());
	}

	/**
	 * What is pending changed (files resolved, a new set, an accept undone or redone): a shown
	 * notification no longer stands for it and closes; its links, if clicked meanwhile, do nothing.
	 */
	private _moved(): void {
		this._notice.moved();
		this._fireChanged();
	}

	private _nothingPending(): void {
		void vscode.window.showInformationMessage(vscode.l10n.t('MassGen: no changes are waiting for review.'));
	}

	private _fail(what: string, error: unknown): void {
		this._deps.log.error(`change review (${what}): ${errorDetail(error)}`);
	}
}
