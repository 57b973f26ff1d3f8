import * as vscode from 'vscode';
import { Disposable } from '../common/lifecycle.js';
import { contextKeys } from '../common/commandIds.js';
import { changeScheme, changeUri, parseChangeUri } from '../changes/changeUri.js';
import type { PendingChangeSet } from '../changes/pendingChangeSet.js';
import type { ChangeSetChange } from '../run/runTypes.js';
import { type LineRange, lineCount, mapperCache } from './anchorMap.js';
import { maxCommentChars, maxThreadsPerRun, type TeamThread, threadText } from './teamThread.js';
import type { ReviewComment } from '../../contract/revision.js';

/** What the threads need of the change review. */
export interface ReviewedChanges {
	/** The run's pending set (undefined when nothing of it is pending). */
	pending(runId: string): PendingChangeSet | undefined;
	readonly onDidChangeChangeSet: vscode.Event<ChangeSetChange>;
	/** The panel's view of the run changed (comment counts and marks): send it again. */
	refreshView(runId: string): void;
}

/** A thread as the API and the tests see it. */
export interface TeamThreadInfo {
	readonly id: string;
	readonly runId: string;
	readonly path: string;
	/** 1-based, inclusive lines of the proposed document. */
	readonly line: number;
	readonly endLine: number;
	readonly text: string;
	readonly resolved: boolean;
	readonly outcome?: TeamThread['outcome'];
	readonly thread: vscode.CommentThread;
}

const controllerId = 'massgen-team';
const author = (): vscode.CommentAuthorInformation => ({ name: vscode.l10n.t('You') });

/** One comment of a thread; the Comments API hands it back to Edit, Save, Cancel and Delete. */
class TeamComment implements vscode.Comment {
	readonly author = author();
	readonly contextValue = 'massgen-team-comment';
	mode = vscode.CommentMode.Preview;
	savedBody: string;

	constructor(
		public body: string,
		readonly parent: vscode.CommentThread,
	) {
		this.savedBody = body;
	}
}

/**
 * "Comment for the Team" (docs/changes.md, the review loop): the reviewer's Comments API threads
 * on a run's PROPOSED documents (`massgen-change://proposed/<path>?<runId>`), kept per run. A
 * thread's anchor follows its document: when the proposed text re-renders (a hunk ticked or
 * unticked) its lines are mapped through the text's diff (`mapRange`) and the thread moves; when a
 * revision arrives the thread moves to the new run's document at the lines the core reports.
 */
export class TeamComments extends Disposable {
	private readonly _controller = this._register(
		vscode.comments.createCommentController(controllerId, vscode.l10n.t('Comments for the MassGen team')),
	);
	/** Every thread, by its Comments API thread. */
	private readonly _threads = new Map<vscode.CommentThread, TeamThread>();
	private _next = 1;
	private readonly _onDidChange = this._register(new vscode.EventEmitter<string>());
	/** A run's threads changed (added, edited, resolved, moved): its run id. */
	readonly onDidChange = this._onDidChange.event;

	constructor(private readonly _changes: ReviewedChanges) {
		super();
		this._controller.options = {
			prompt: vscode.l10n.t('Comment for the Team'),
			placeHolder: vscode.l10n.t('What should the team change here?'),
		};
		this._controller.commentingRangeProvider = {
			provideCommentingRanges: (document) => this._commentable(document),
		};
		this._register(_changes.onDidChangeChangeSet(({ runId }) => this._reanchor(runId)));
		this._register({ dispose: () => this._clear() });
	}

	/** The threads, all or one run's, in the order they were made. */
	threads(runId?: string): TeamThreadInfo[] {
		return [...this._threads.entries()]
			.filter(([, thread]) => runId === undefined || thread.runId === runId)
			.map(([vsThread, thread]) => ({
				id: thread.id,
				runId: thread.runId,
				path: thread.path,
				line: thread.range.line,
				endLine: thread.range.endLine,
				text: threadText(thread),
				resolved: thread.resolved,
				...(thread.outcome ? { outcome: thread.outcome } : {}),
				thread: vsThread,
			}));
	}

	/** Every thread on a run's proposal (resolved ones too). */
	runThreads(runId: string): TeamThread[] {
		return [...this._threads.values()].filter((thread) => thread.runId === runId);
	}

	/** Open threads with words on a run's proposal: what Send to Team sends. */
	openThreads(runId: string): TeamThread[] {
		return [...this._threads.values()].filter(
			(thread) => thread.runId === runId && !thread.resolved && threadText(thread).length > 0,
		);
	}

	/**
	 * Adds a comment: the reply of a thread's own box (`CommentReply`: the gutter's new thread or an
	 * existing one), or `{ uri, line, endLine?, text }` on a proposed document. Returns the thread's id.
	 */
	add(arg: unknown): string | undefined {
		if (isReply(arg)) return this._reply(arg.thread, arg.text);
		if (!isCommentArgs(arg)) return undefined;
		const parsed = parseChangeUri(arg.uri);
		const pending = parsed?.version === 'proposed' ? this._changes.pending(parsed.runId) : undefined;
		if (!parsed || !pending?.file(parsed.path)) {
			void vscode.window.showInformationMessage(
				vscode.l10n.t('MassGen: comment on the proposed side of a change that is still pending.'),
			);
			return undefined;
		}
		const text = pending.proposedText(parsed.path);
		const total = Math.max(lineCount(text), 1);
		const line = clamp(arg.line, 1, total);
		const range = { line, endLine: clamp(arg.endLine ?? line, line, total) };
		const vsThread = this._controller.createCommentThread(arg.uri, toRange(range), []);
		return this._adopt(vsThread, parsed.runId, parsed.path, range, text, arg.text);
	}

	/** Edit: the comment's box opens with its text. */
	edit(comment: unknown): void {
		const found = this._comment(comment);
		if (!found) return;
		found.comment.mode = vscode.CommentMode.Editing;
		found.vsThread.comments = [...found.vsThread.comments];
	}

	/** Save of an edit: the thread's words change (a comment left empty is deleted). */
	save(comment: unknown): void {
		const found = this._comment(comment);
		if (!found) return;
		const body = found.comment.body;
		if (body.trim() === '') {
			this.delete(comment);
			return;
		}
		found.comment.body = body.slice(0, maxCommentChars);
		found.comment.savedBody = found.comment.body;
		found.comment.mode = vscode.CommentMode.Preview;
		this._syncWords(found.vsThread);
	}

	cancelEdit(comment: unknown): void {
		const found = this._comment(comment);
		if (!found) return;
		found.comment.body = found.comment.savedBody;
		found.comment.mode = vscode.CommentMode.Preview;
		found.vsThread.comments = [...found.vsThread.comments];
	}

	/** Delete: the comment goes; a thread left without comments goes with it. */
	delete(comment: unknown): void {
		const found = this._comment(comment);
		if (!found) return;
		found.vsThread.comments = found.vsThread.comments.filter((other) => other !== found.comment);
		if (found.vsThread.comments.length === 0) this.deleteThread(found.vsThread);
		else this._syncWords(found.vsThread);
	}

	/** Delete Thread (its title action, or an empty new thread's Cancel). */
	deleteThread(vsThread: unknown): void {
		const thread = this._known(vsThread);
		if (!thread) {
			if (isThread(vsThread) && vsThread.comments.length === 0) vsThread.dispose();
			return;
		}
		this._threads.delete(vsThread as vscode.CommentThread);
		(vsThread as vscode.CommentThread).dispose();
		this._changed(thread.runId);
	}

	/** Resolve or Reopen (a resolved thread is not sent to the team). */
	setResolved(vsThread: unknown, resolved: boolean): void {
		const thread = this._known(vsThread);
		if (!thread) return;
		thread.resolved = resolved;
		this._style(vsThread as vscode.CommentThread, thread);
		this._changed(thread.runId);
	}

	/**
	 * A revision of `fromRunId` arrived as run `runId` with these comments: each thread moves to the
	 * new run's proposed document at the lines its comment has now (a file the new set does not
	 * change keeps its thread where it was), labelled with the team's verdict. It stays open either way:
	 * the winner's "Addresses: c1" is a model's claim, so the reviewer resolves the thread, not the team.
	 * `texts`: the new run's text per path (the proposed side as it opens: every hunk selected).
	 */
	applyRevision(
		fromRunId: string,
		runId: string,
		comments: readonly ReviewComment[],
		texts: ReadonlyMap<string, string>,
	): void {
		for (const [vsThread, thread] of [...this._threads]) {
			if (thread.runId !== fromRunId) continue;
			const comment = comments.find((candidate) => candidate.ref === thread.id);
			if (!comment) continue;
			thread.outcome = { commentId: comment.id, addressed: comment.addressed, fromRunId };
			const text = texts.get(thread.path);
			if (comment.now && text !== undefined) {
				const total = Math.max(lineCount(text), 1);
				const line = clamp(comment.now.line, 1, total);
				const range = { line, endLine: clamp(comment.now.endLine, line, total) };
				const moved = this._controller.createCommentThread(
					changeUri(runId, 'proposed', thread.path),
					toRange(range),
					[],
				);
				moved.comments = vsThread.comments.map((old) => new TeamComment(bodyOf(old), moved));
				this._threads.delete(vsThread);
				vsThread.dispose();
				thread.runId = runId;
				thread.range = range;
				thread.anchoredText = text;
				this._threads.set(moved, thread);
				this._style(moved, thread);
			} else {
				this._style(vsThread, thread);
			}
		}
		this._changed(fromRunId);
		this._changed(runId);
	}

	private _reply(vsThread: vscode.CommentThread, text: string): string | undefined {
		const known = this._threads.get(vsThread);
		if (known) {
			if (text.trim() === '') return known.id;
			vsThread.comments = [...vsThread.comments, new TeamComment(text.slice(0, maxCommentChars), vsThread)];
			this._syncWords(vsThread);
			return known.id;
		}
		// A thread the reviewer opened in the gutter: adopt it when it is on a pending proposal.
		const parsed = parseChangeUri(vsThread.uri);
		const pending = parsed?.version === 'proposed' ? this._changes.pending(parsed.runId) : undefined;
		if (!parsed || !pending?.file(parsed.path) || !vsThread.range) {
			vsThread.dispose();
			return undefined;
		}
		const range = { line: vsThread.range.start.line + 1, endLine: vsThread.range.end.line + 1 };
		return this._adopt(vsThread, parsed.runId, parsed.path, range, pending.proposedText(parsed.path), text);
	}

	private _adopt(
		vsThread: vscode.CommentThread,
		runId: string,
		path: string,
		range: LineRange,
		anchoredText: string,
		text: string,
	): string | undefined {
		const words = text.trim();
		if (words === '') {
			vsThread.dispose();
			return undefined;
		}
		if (this.threads(runId).length >= maxThreadsPerRun) {
			vsThread.dispose();
			void vscode.window.showWarningMessage(
				vscode.l10n.t('MassGen: a change set takes at most {0} comments.', maxThreadsPerRun),
			);
			return undefined;
		}
		const thread: TeamThread = {
			id: `t${this._next++}`,
			runId,
			path,
			range,
			anchoredText,
			comments: [],
			resolved: false,
		};
		vsThread.comments = [new TeamComment(words.slice(0, maxCommentChars), vsThread)];
		this._threads.set(vsThread, thread);
		this._syncWords(vsThread);
		this._style(vsThread, thread);
		return thread.id;
	}

	/** The thread's words as its comments say now. */
	private _syncWords(vsThread: vscode.CommentThread): void {
		const thread = this._threads.get(vsThread);
		if (!thread) return;
		thread.comments.splice(0, thread.comments.length, ...vsThread.comments.map(bodyOf));
		vsThread.comments = [...vsThread.comments];
		this._changed(thread.runId);
	}

	private _style(vsThread: vscode.CommentThread, thread: TeamThread): void {
		vsThread.canReply = true;
		vsThread.contextValue = thread.resolved ? 'massgen-team-resolved' : 'massgen-team-open';
		vsThread.state = thread.resolved
			? vscode.CommentThreadState.Resolved
			: vscode.CommentThreadState.Unresolved;
		vsThread.collapsibleState = thread.resolved
			? vscode.CommentThreadCollapsibleState.Collapsed
			: vscode.CommentThreadCollapsibleState.Expanded;
		const outcome = thread.outcome;
		vsThread.label = !outcome
			? vscode.l10n.t('For the team')
			: outcome.addressed
				? vscode.l10n.t('Addressed by the team ({0}): resolve it if you agree', outcome.commentId)
				: vscode.l10n.t('Not addressed by the team ({0})', outcome.commentId);
	}

	/** The proposed text of a run's file changed (a hunk ticked or unticked): its threads follow their lines. */
	private _reanchor(runId: string): void {
		const pending = this._changes.pending(runId);
		if (!pending) return;
		const mapper = mapperCache();
		for (const [vsThread, thread] of this._threads) {
			if (thread.runId !== runId || !pending.file(thread.path)) continue;
			const text = pending.proposedText(thread.path);
			if (text === thread.anchoredText) continue;
			const range = mapper(thread.anchoredText, text)(thread.range);
			thread.anchoredText = text;
			if (!range) continue;
			thread.range = range;
			vsThread.range = toRange(range);
		}
	}

	private _commentable(document: vscode.TextDocument): vscode.Range[] {
		if (document.uri.scheme !== changeScheme) return [];
		const parsed = parseChangeUri(document.uri);
		if (parsed?.version !== 'proposed' || !this._changes.pending(parsed.runId)?.file(parsed.path)) return [];
		return document.lineCount > 0 ? [new vscode.Range(0, 0, document.lineCount - 1, 0)] : [];
	}

	private _known(vsThread: unknown): TeamThread | undefined {
		return isThread(vsThread) ? this._threads.get(vsThread) : undefined;
	}

	private _comment(comment: unknown): { comment: TeamComment; vsThread: vscode.CommentThread } | undefined {
		if (!(comment instanceof TeamComment) || !this._threads.has(comment.parent)) return undefined;
		return { comment, vsThread: comment.parent };
	}

	private _changed(runId: string): void {
		void vscode.commands.executeCommand(
			'setContext',
			contextKeys.hasTeamComments,
			[...this._threads.values()].some((thread) => !thread.resolved),
		);
		this._changes.refreshView(runId);
		this._onDidChange.fire(runId);
	}

	private _clear(): void {
		for (const vsThread of this._threads.keys()) vsThread.dispose();
		this._threads.clear();
	}
}

function bodyOf(comment: vscode.Comment): string {
	return typeof comment.body === 'string' ? comment.body : comment.body.value;
}

function clamp(value: number, low: number, high: number): number {
	return Math.min(Math.max(Math.trunc(value), low), Math.max(low, high));
}

function toRange(range: LineRange): vscode.Range {
	return new vscode.Range(range.line - 1, 0, range.endLine - 1, 0);
}

function isThread(value: unknown): value is vscode.CommentThread {
	return typeof value === 'object' && value !== null && 'uri' in value && 'comments' in value;
}

function isReply(value: unknown): value is vscode.CommentReply {
	return (
		typeof value === 'object' &&
		value !== null &&
		'thread' in value &&
		'text' in value &&
		isThread(value.thread) &&
		typeof value.text === 'string'
	);
}

function isCommentArgs(
	value: unknown,
): value is { uri: vscode.Uri; line: number; endLine?: number; text: string } {
	if (typeof value !== 'object' || value === null) return false;
	const { uri, line, endLine, text } = value as Record<string, unknown>;
	return (
		uri instanceof vscode.Uri &&
		typeof line === 'number' &&
		Number.isFinite(line) &&
		(endLine === undefined || (typeof endLine === 'number' && Number.isFinite(endLine))) &&
		typeof text === 'string'
	);
}
