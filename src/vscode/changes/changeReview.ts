import * as vscode from 'vscode';
import type { AnswerChanges } from '../../core/changes/changeSet.js';
import type { ChangeSetView } from '../../protocol/changeSetView.js';
import type { AcceptRequest } from '../../protocol/messages.js';
import { Disposable } from '../common/lifecycle.js';
import type { ChangeActions, FinishedRun, RunService } from '../run/runTypes.js';
import type { AcceptResult } from './acceptPending.js';
import { AcceptGate } from './acceptGate.js';
import { reportNotWritten, reportWritten } from './acceptParts.js';
import { AcceptWatch } from './acceptWatch.js';
import { ChangeNotice, noticeOf } from './changeNotice.js';
import { ChangeContentProvider } from './changeContentProvider.js';
import { type ChangePrompts, windowPrompts } from './changePrompts.js';
import { ChangeViews } from './changeViews.js';
import { isChangeVersion, parseChangeUri } from './changeUri.js';
import {
	closeChangeTabs,
	openChangeDiff,
	openChangesEditor,
	resolveThenNext,
	stepChangeDiff,
} from './diffTabs.js';
import { fileInPlay } from './fileInPlay.js';
import { playHints } from './playHints.js';
import type { FileOutcome, PendingChangeSet } from './pendingChangeSet.js';
import { PendingFileTracker } from './pendingFileTracker.js';
import { PendingSets } from './pendingSets.js';
import { ProposalEdits } from './proposalEdits.js';
import type { ProposalFile } from '../../contract/revision.js';
import type { NewChangeLogEntry } from '../../core/runStore/changeLog.js';
import { fileForCommand, setForCommand } from './commandTarget.js';
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
 * Review and acceptance of the winners' changes (docs/changes.md): keeps every run's pending change
 * set by run id (`PendingSets`: several runs may finish in any order, each set is reviewed,
 * accepted, rejected and undone on its own), serves their versions as virtual documents, opens the
 * diffs without taking the keyboard, and applies the accepted part as one WorkspaceEdit after the
 * base-hash check (3-way merge against that run's snapshot on a mismatch: another run's accept
 * is merged with, never overwritten). This class decides what happens to the sets; each other
 * piece of state has its owner: `ChangeViews` (how the sets are shown, the review loop's
 * decorator), `AcceptGate` (one accept at a time), `ProposalEdits` (the user's edits of the
 * proposed side), `ChangeNotice` (the end-of-run notifications), `AcceptWatch` (undo of accepts).
 */
export class ChangeReview extends Disposable implements ChangeActions {
	private readonly _sets = new PendingSets();
	/** The user's edits of the proposed side (`_provider` takes their saves). */
	private readonly _edits: ProposalEdits = new ProposalEdits({
		pending: (runId) => this._sets.get(runId),
		changed: (runId, path) => {
			this._provider.proposedChanged(runId, path);
			this._views.changed(runId);
		},
		log: { info: (message: string) => this._deps.log.info(message) },
	});
	private readonly _provider = this._register(new ChangeContentProvider(this._edits));
	/** Each run's accepts: an undo of one puts its files back into that run's set. */
	private readonly _accepts = this._register(new AcceptWatch());
	/** The panel's views, status bar, lenses and context keys of the sets. */
	private readonly _views = this._register(
		new ChangeViews(this._sets, this._accepts, (runId) => this._provider.set(runId)),
	);
	readonly onDidChangeChangeSet = this._views.onDidChange;
	private readonly _onDidAccept = this._register(new vscode.EventEmitter<readonly string[]>());
	/** Accept wrote files (their paths): the walkthrough's "Review and accept a change" is done. */
	readonly onDidAccept = this._onDidAccept.event;
	private readonly _prompts: ChangePrompts;
	private readonly _gate: AcceptGate;
	private readonly _notice = new ChangeNotice();
	private _engine: Promise<typeof import('./changeEngine.js')> | undefined;
	private readonly _files = this._register(
		new PendingFileTracker(
			() => this._sets.list(),
			(set) => this._views.changed(set.runId),
		),
	);

	constructor(private readonly _deps: ChangeReviewDeps) {
		super();
		this._prompts = _deps.prompts ?? windowPrompts;
		this._gate = new AcceptGate({ prompts: this._prompts, log: _deps.log, engine: () => this._loadEngine() });
		this._register(
			_deps.runs.onDidFinishRun(
				(run) => void this._onFinished(run).catch((error: unknown) => this._fail('review', error)),
			),
		);
		// Undo or Redo of an accept (or Revert Run) changes what that run has pending, what the status
		// bar says and whether its notification still stands.
		this._register(this._accepts.onDidChange((runId) => this._followAccept(runId)));
	}

	/** The change sets' status bar text (undefined: hidden), for tests. */
	get statusText(): string | undefined {
		return this._views.statusText;
	}

	/** The end-of-run notification of `runId` showing now (else the one shown last), for tests. */
	notice(runId?: string): ReturnType<ChangeNotice['current']> {
		return this._notice.current(runId);
	}

	/** The run's pending change set (tests); undefined when nothing of it is pending. */
	pending(runId: string): PendingChangeSet | undefined {
		return this._sets.get(runId);
	}

	changeSet(runId: string): ChangeSetView | null {
		return this._views.view(runId);
	}

	/** What the panel's view of every set gets besides the change review's own (the review loop's comments). */
	decorateViews(decorate: (view: ChangeSetView) => ChangeSetView): void {
		this._views.decorate(decorate);
	}

	/** A run's view changed outside the change review (its comments): the panel gets it again. */
	refreshView(runId: string): void {
		this._views.refresh(runId);
	}

	pendingRunIds(): readonly string[] {
		return this._sets.runIds();
	}

	async openDiff(runId: string, path: string, version = 'proposed'): Promise<void> {
		// A file decided already still opens (the panel's outcome rows): the run's set as held.
		const pending = this._sets.held(runId) ?? this._provider.set(runId);
		if (!pending?.anyFile(path) || !isChangeVersion(version) || version === 'base') {
			this._deps.log.warn(`change review: no diff for ${path} (${version}) of run ${runId}`);
			return;
		}
		await openChangeDiff(pending, path, version, { preserveFocus: true, preview: true });
	}

	/** The multi-file view of every pending file of a run. `arg`: a notification's link, or `{ runId }`. */
	async review(arg?: unknown): Promise<void> {
		if (this._staleNotice(arg)) return;
		const pending = await this._setFor(arg);
		if (!pending) return;
		// Review from the notification: the multi-file diff takes over, the notification goes.
		if (noticeOf(arg)) this._notice.dismiss(pending.runId);
		await openChangesEditor(pending);
	}

	/** Accept Changes (palette, editor title, a notification's link): every pending file of a run. */
	async acceptAll(arg?: unknown): Promise<void> {
		if (this._staleNotice(arg)) return;
		const pending = await this._setFor(arg);
		if (pending) await this.accept({ runId: pending.runId });
	}

	/** Reject Changes (palette, editor title, a notification's link): every pending file of a run. */
	async rejectAll(arg?: unknown): Promise<void> {
		if (this._staleNotice(arg)) return;
		const pending = await this._setFor(arg);
		if (pending) await this.reject(pending.runId);
	}

	/** A hunk's Accept or Reject in the diff (`HunkLenses`): the panel's checkbox, for the file of `uri`. */
	selectHunkIn(uri: unknown, id: unknown, selected: boolean): void {
		const parsed = uri instanceof vscode.Uri ? parseChangeUri(uri) : undefined;
		if (!parsed || typeof id !== 'string' || !this._sets.get(parsed.runId)) {
			this._deps.log.warn('change review: that change is no longer pending');
			return;
		}
		this.selectHunks(parsed.runId, parsed.path, [id], selected);
	}

	selectHunks(runId: string, path: string, ids: readonly string[], selected: boolean): void {
		if (this._edits.selectionWaits(runId, path)) {
			// The panel's checkbox goes back to the selection that stands.
			this._views.changed(runId);
			return;
		}
		const pending = this._sets.get(runId);
		if (!pending?.select(path, ids, selected)) return;
		this._provider.proposedChanged(pending.runId, path);
		this._views.changed(runId);
	}

	async accept(request: AcceptRequest): Promise<void> {
		const { paths, runId } = request;
		// What the diff shows is what Accept writes: unsaved typing in a proposed side is saved first,
		// and the panel's hunk ids of a file that just became the user's text no longer apply.
		const saved = await this._edits.saveDirty(runId, paths);
		const hunks = request.hunks?.filter((selection) => !saved.includes(selection.path));
		const pending = this._sets.get(runId);
		if (!pending) {
			this._deps.log.warn(`change review: accept for run ${runId} ignored; it has no pending changes`);
			return;
		}
		const unknown = (paths ?? []).filter((path) => !pending.file(path));
		if (unknown.length > 0) this._deps.log.warn(`change review: not pending: ${unknown.join(', ')}`);
		if (paths && unknown.length === paths.length) return;
		// One accept at a time, a secret value asked first (`AcceptGate`); what follows is this set's.
		await this._gate.run(pending, paths, hunks, (result) => this._afterAccept(pending, result));
	}

	async reject(runId: string, paths?: readonly string[]): Promise<void> {
		const pending = this._sets.get(runId);
		if (!pending) {
			this._deps.log.warn(`change review: reject for run ${runId} ignored; it has no pending changes`);
			return;
		}
		const gone = paths
			? paths.filter((path) => pending.file(path))
			: pending.files().map((file) => file.path);
		this._deps.log.info(
			`change review: rejected ${gone.join(', ')} of run ${pending.runId}; nothing was written`,
		);
		await this._recordReject(pending, gone);
		await this._resolve(pending, gone, 'rejected');
		this._release(runId);
	}

	/** Appends a reject entry to the run's record (the Runs view and follow-ups read it); a failure is logged. */
	private async _recordReject(pending: PendingChangeSet, paths: readonly string[]): Promise<void> {
		if (paths.length > 0) await this._record(pending, { kind: 'reject', by: 'editor', paths: [...paths] });
	}

	/** Appends an entry to a run's change log (the Runs view, follow-ups and `massgen show` read it); a failure is logged. */
	private async _record(pending: PendingChangeSet, entry: NewChangeLogEntry): Promise<void> {
		const { appendChangeLog } = await this._loadEngine();
		await appendChangeLog(pending.run.runDir, entry).catch((error: unknown) => this._fail('record', error));
	}

	/** Accept File / Reject File: the file of the diff the action is on, else the active diff, else a pick. */
	async acceptFile(arg?: unknown): Promise<void> {
		const pending = await this._setFor(arg);
		const path = pending && (await fileForCommand(pending, arg, vscode.l10n.t('Accept which file?')));
		if (!pending || !path) return;
		await this._edits.saveDirty(pending.runId, [path]);
		const ids = pending.acceptFileHunks(path);
		const runId = pending.runId;
		await this._thenNext(pending, path, () =>
			this.accept({ runId, paths: [path], hunks: ids && [{ path, ids }] }),
		);
	}

	async rejectFile(arg?: unknown): Promise<void> {
		const pending = await this._setFor(arg);
		const path = pending && (await fileForCommand(pending, arg, vscode.l10n.t('Reject which file?')));
		if (pending && path) await this._thenNext(pending, path, () => this.reject(pending.runId, [path]));
	}

	/** Discard My Edit (a diff's lens, the palette): the file's proposal is the team's again. */
	async discardEdit(arg?: unknown): Promise<void> {
		const pending = await this._setFor(arg);
		const path =
			pending && (await fileForCommand(pending, arg, vscode.l10n.t('Discard your edit of which file?')));
		if (pending && path && !(await this._edits.discard(pending.runId, path))) {
			this._deps.log.info(
				`change review: ${path} of run ${pending.runId} has no edit of yours; nothing was done`,
			);
		}
	}

	/**
	 * The run's pending files as a follow-up tells the team (`RevisionRequest.files`): what Accept
	 * would write now (selection and the user's edits), with the lines the user wrote. Empty when
	 * nothing of the run is pending.
	 */
	proposalFiles(runId: string): ProposalFile[] {
		return this._sets.get(runId)?.proposalFiles() ?? [];
	}

	/** Opens the next (or previous) pending file's diff of a run, wrapping around. */
	async step(by: 1 | -1): Promise<void> {
		const pending = await this._setFor(undefined);
		if (pending) await stepChangeDiff(pending, by);
	}

	/** Resolves one file; when its diff was the active editor, the run's next pending file's diff takes its place. */
	private _thenNext(pending: PendingChangeSet, path: string, resolve: () => Promise<void>): Promise<void> {
		return resolveThenNext(pending, path, resolve, () => this._sets.get(pending.runId) === pending);
	}

	/** The pending set a command is for (`commandTarget.ts`); undefined when none (the user was told). */
	private _setFor(arg: unknown): Promise<PendingChangeSet | undefined> {
		return setForCommand(arg, this._sets, this._prompts, this._deps.log);
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
		const pending = new engine.PendingChangeSet(run, set, answers);
		const runId = pending.runId;
		this._provider.add(pending);
		// Beside the sets already waiting: another run's changes never replace these (but a
		// revision's replaces the set it revised).
		this._sets.add(pending);
		const revised = run.request.revision?.fromRunId;
		if (revised !== undefined && revised !== runId) await this._supersede(revised, runId);
		this._files.watch();
		for (const file of pending.files()) await this._files.refresh(pending.uri(file.path));
		this._moved(runId);
		const winner = result.winner?.agentId ?? vscode.l10n.t('the team');
		const count = set.files.length;
		if (result.secretValueFiles?.length) {
			this._deps.log.warn(
				`change review: run ${runId}: ${result.secretValueFiles.join(', ')} would get a secret value this run knows (Accept asks first)`,
			);
		}
		this._deps.log.info(
			`change review: run ${runId}: ${count} file(s) changed by ${winner}: ${set.files.map((f) => `${f.kind} ${f.path}`).join(', ')}`,
		);
		await this._files.whenUserIdle(this._deps.idleMs ?? 1500);
		if (this._sets.get(runId) !== pending) return;
		// After a selection review the reviewed code and its comment threads stay in view: the fix opens beside it.
		const viewColumn = run.request.kind === 'review' ? vscode.ViewColumn.Beside : undefined;
		const first = fileInPlay(
			pending.files().map((file) => file.path),
			playHints(run),
		);
		if (first !== undefined) {
			await openChangeDiff(pending, first, 'proposed', { preserveFocus: true, preview: true, viewColumn });
		}
		if (this._sets.get(runId) !== pending || pending.isEmpty) return;
		void this._notice
			.show(this._prompts, runId, pending.files().length, winner, pending.name)
			.catch((error: unknown) => this._fail('notification', error));
	}

	/** A click on a notification's link that is out of date does nothing (`ChangeNotice.refuseStale`). */
	private _staleNotice(arg: unknown): boolean {
		return this._notice.refuseStale(arg, (runId) => this._sets.get(runId) !== undefined, this._deps.log);
	}

	private async _afterAccept(pending: PendingChangeSet, result: AcceptResult): Promise<void> {
		const { log } = this._deps;
		const runId = pending.runId;
		if (reportNotWritten(result, runId, log)) return;
		if (result.status === 'rerun') {
			log.info(`change review: re-running the team on the current files (run ${runId} discarded)`);
			const all = pending.files().map((file) => file.path);
			await this._recordReject(pending, all);
			await this._resolve(pending, all, 'rejected');
			this._release(runId);
			void this._deps.runs.start(pending.run.request);
			return;
		}
		this._views.acceptDone(reportWritten(result, runId, log));
		await this._resolve(pending, result.resolved, 'accepted');
		if (result.written.length > 0) this._onDidAccept.fire(result.written);
		for (const path of result.marked) {
			await vscode.window.showTextDocument(pending.uri(path), { preview: false });
		}
		if (result.landed.length > 0) {
			this._accepts.follow({ runId, folder: pending.run.folder.uri, files: result.landed });
		}
		this._release(runId);
	}

	/**
	 * Drops files from a run's pending set (accepted or rejected) and closes their diffs (a multi-file
	 * view stays until nothing of the run is pending: its lenses say what became of each file).
	 */
	private async _resolve(
		pending: PendingChangeSet,
		paths: readonly string[],
		outcome: FileOutcome,
	): Promise<void> {
		if (outcome === 'rejected') await this._edits.revertDirty(pending.runId, paths);
		pending.remove(paths, outcome);
		this._sets.settle(pending);
		this._files.watch();
		this._moved(pending.runId);
		await closeChangeTabs(pending.runId, pending.isEmpty ? undefined : new Set(paths));
	}

	/**
	 * A revision's change set arrived (Send to Team): the set it revised is no longer offered and is
	 * recorded as `supersede` in that run's change log; its notification and diffs close. Its
	 * accepted files stay as they are (the revision was made against them).
	 */
	private async _supersede(runId: string, by: string): Promise<void> {
		const old = this._sets.get(runId);
		if (!old) return;
		this._deps.log.info(
			`change review: run ${runId}'s pending changes are superseded by run ${by}'s revision`,
		);
		// Gone in the same tick the new set came: never two sets for one proposal.
		this._sets.drop(runId);
		this._moved(runId);
		await this._record(old, { kind: 'supersede', by: 'editor', byRun: by });
		await closeChangeTabs(runId);
	}

	/** Lets a run's set go once nothing of it is pending and no accept of it is followed. */
	private _release(runId: string): void {
		if (!this._sets.get(runId) && !this._accepts.of(runId)) this._sets.drop(runId);
	}

	/**
	 * A run's accepted files as they stand now: one that is back as it was before the accept (Undo,
	 * Revert Run) is pending again in that run's set, offered with the rest (its selection as it
	 * was); Redo takes it out again as accepted. A file edited since is left as it is. No
	 * notification is shown again: the user undid it themselves, and the panel, the status bar and
	 * the diff's lenses offer it. Other runs' sets are untouched.
	 */
	private _followAccept(runId: string): void {
		const set = this._sets.held(runId);
		const followed = this._accepts.of(runId);
		if (set && followed) {
			const back = set.restore(followed.undonePaths);
			const again = followed.appliedPaths.filter((path) => set.file(path));
			set.remove(again, 'accepted');
			if (back.length > 0 || again.length > 0) {
				this._deps.log.info(
					`change review: run ${runId}: ${back.length ? `pending again (accept undone): ${back.join(', ')}` : ''}${back.length && again.length ? '; ' : ''}${again.length ? `accepted again (redo): ${again.join(', ')}` : ''}`,
				);
				this._sets.settle(set);
				this._files.watch();
				for (const path of back) void this._files.refresh(set.uri(path));
			}
		}
		this._release(runId);
		this._moved(runId);
	}

	private _loadEngine(): Promise<typeof import('./changeEngine.js')> {
		return (this._engine ??= import('./changeEngine.js'));
	}

	/**
	 * What a run has pending changed (files resolved, a new set, an accept undone or redone): its
	 * notification no longer stands for it and closes; its links, if clicked meanwhile, do nothing.
	 */
	private _moved(runId: string): void {
		this._notice.moved(runId);
		this._views.changed(runId);
	}

	private _fail(what: string, error: unknown): void {
		this._deps.log.error(`change review (${what}): ${errorDetail(error)}`);
	}
}
