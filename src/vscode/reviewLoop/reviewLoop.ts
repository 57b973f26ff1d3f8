import * as vscode from 'vscode';
import type { ChangeSetView } from '../../protocol/changeSetView.js';
import { Disposable } from '../common/lifecycle.js';
import { errorDetail } from '../common/log.js';
import { changeUri, parseChangeUri } from '../changes/changeUri.js';
import { activeChangeRun } from '../changes/diffTabs.js';
import { chooseRun, runArgOf } from '../changes/runChoice.js';
import type { FinishedRun, RunService } from '../run/runTypes.js';
import { type LineRange, mapRange } from './anchorMap.js';
import { placeThreads, withComments } from './hunkComments.js';
import { revisionPlan } from './revisionRequest.js';
import { maxCommentChars } from './teamThread.js';
import { type ReviewedChanges, TeamComments } from './teamComments.js';

export interface ReviewLoopDeps {
	readonly changes: ReviewedChanges & {
		openDiff(runId: string, path: string, version?: string): Promise<void>;
		pendingRunIds(): readonly string[];
	};
	readonly runs: Pick<RunService, 'start'>;
	readonly log: vscode.LogOutputChannel;
	/** Asks for a comment's words (replaced in tests); undefined: cancelled. */
	readonly askText?: (prompt: string) => Promise<string | undefined>;
}

/**
 * The review loop in the editor (docs/changes.md): "Comment for the Team" on a change set's
 * proposed lines (the diff's gutter and selection, a hunk of the panel), and "Send to Team": a
 * follow-up run of the same session that revises the proposal with every open comment
 * (`RunRequest.revision`). When the revision ends, each thread moves to the new change set,
 * resolved where the winner addressed it.
 */
export class ReviewLoop extends Disposable {
	readonly comments: TeamComments;

	constructor(private readonly _deps: ReviewLoopDeps) {
		super();
		this.comments = this._register(new TeamComments(_deps.changes));
	}

	/** The panel's view of a run's set with its comments (`ChangeReview`'s view decorator). */
	decorate(view: ChangeSetView): ChangeSetView {
		const pending = this._deps.changes.pending(view.runId);
		const own = this.comments.runThreads(view.runId);
		if (!pending || own.length === 0) return view;
		const placed = placeThreads(own, (path) => {
			const file = pending.file(path);
			return file ? (file.final ?? '') : undefined;
		});
		return withComments(view, placed);
	}

	/**
	 * Comment for the Team: a thread's reply box (`CommentReply`), `{ uri, line, endLine?, text }`,
	 * or the active editor's selection on a proposed document (the words asked for).
	 */
	async commentForTeam(arg?: unknown): Promise<string | undefined> {
		if (arg !== undefined && !(arg instanceof vscode.Uri)) return this.comments.add(arg);
		const editor = vscode.window.activeTextEditor;
		const parsed = editor && parseChangeUri(editor.document.uri);
		if (!editor || parsed?.version !== 'proposed') {
			void vscode.window.showInformationMessage(
				vscode.l10n.t('MassGen: select lines on the proposed side of a change diff to comment on them.'),
			);
			return undefined;
		}
		const { start, end } = editor.selection;
		const endLine = end.character === 0 && end.line > start.line ? end.line : end.line + 1;
		const text = await this._ask(vscode.l10n.t('Comment for the Team on {0}', parsed.path));
		if (text === undefined) return undefined;
		return this.comments.add({ uri: editor.document.uri, line: start.line + 1, endLine, text });
	}

	/** The panel's Comment on a hunk: `{ runId, path, hunkId, text? }`; opens the file's diff and asks the words. */
	async commentOnHunk(arg: unknown): Promise<string | undefined> {
		const { runId, path, hunkId, text } = (arg ?? {}) as Record<string, unknown>;
		if (typeof runId !== 'string' || typeof path !== 'string' || typeof hunkId !== 'string') return undefined;
		const pending = this._deps.changes.pending(runId);
		const file = pending?.file(path);
		const hunk = file?.hunks.find((candidate) => candidate.id === hunkId);
		if (!pending || !file || !hunk) {
			this._deps.log.warn(`review loop: no pending hunk ${hunkId} of ${path} in run ${runId}`);
			return undefined;
		}
		// The hunk's lines in the winner's text, then where they are in the proposed text now.
		const inFinal: LineRange = {
			line: hunk.newStart + 1,
			endLine: hunk.newStart + Math.max(hunk.newLines, 1),
		};
		const proposed = pending.proposedText(path);
		const range = mapRange(file.final ?? '', proposed, inFinal) ?? { line: 1, endLine: 1 };
		await this._deps.changes.openDiff(runId, path);
		const words =
			typeof text === 'string' ? text : await this._ask(vscode.l10n.t('Comment for the Team on {0}', path));
		if (words === undefined) return undefined;
		return this.comments.add({ uri: changeUri(runId, 'proposed', path), ...range, text: words });
	}

	/**
	 * Send to Team: revises the run's proposal with its open comments as a follow-up in the same
	 * session. Resolves when that run ends (undefined: nothing sent, or it did not start).
	 */
	async sendToTeam(arg?: unknown): Promise<FinishedRun | undefined> {
		const runId = await this._runFor(arg);
		const pending = runId === undefined ? undefined : this._deps.changes.pending(runId);
		if (!runId || !pending) {
			void vscode.window.showInformationMessage(
				vscode.l10n.t('MassGen: no change set with open comments is waiting for review.'),
			);
			return undefined;
		}
		const plan = revisionPlan(runId, pending.proposalFiles(), this.comments.openThreads(runId));
		if (plan.revision.comments.length === 0) {
			void vscode.window.showInformationMessage(
				vscode.l10n.t('MassGen: there are no open comments on a pending file of this change set.'),
			);
			return undefined;
		}
		if (plan.left.length > 0) {
			this._deps.log.info(
				`review loop: ${plan.left.length} comment(s) left out: their files are no longer in the proposal (${[...new Set(plan.left.map((t) => t.path))].join(', ')})`,
			);
		}
		this._deps.log.info(
			`review loop: sending ${plan.revision.comments.length} comment(s) on ${plan.revision.files.length} file(s) of run ${runId} to the team`,
		);
		const finished = await this._deps.runs.start({
			question: vscode.l10n.t('Revise the proposal: address the review comments.'),
			kind: 'ask',
			continueConversation: true,
			continueFrom: runId,
			folder: pending.run.folder.uri,
			revision: plan.revision,
		});
		if (finished) this._revised(runId, finished);
		return finished;
	}

	/** The revision's change set arrived: the threads move to it and take its verdicts. */
	private _revised(fromRunId: string, finished: FinishedRun): void {
		const record = finished.result.revision;
		if (!record || record.fromRunId !== fromRunId) return;
		const texts = new Map(
			finished.result.changes.map((change) => [change.path, change.content ?? ''] as const),
		);
		try {
			this.comments.applyRevision(fromRunId, finished.result.runId, record.comments, texts);
		} catch (error) {
			this._deps.log.error(`review loop: ${errorDetail(error)}`);
		}
		const addressed = record.comments.filter((comment) => comment.addressed).length;
		this._deps.log.info(
			`review loop: run ${finished.result.runId} revised run ${fromRunId}: ${addressed} of ${record.comments.length} comment(s) addressed`,
		);
	}

	/** The run a Send to Team is for: named, the active diff's, else the only pending run with open comments. */
	private async _runFor(arg: unknown): Promise<string | undefined> {
		const named =
			arg instanceof vscode.Uri
				? parseChangeUri(arg)?.runId
				: isThreadLike(arg)
					? parseChangeUri(arg.uri)?.runId
					: runArgOf(arg);
		const withComments = this._deps.changes
			.pendingRunIds()
			.filter((runId) => this.comments.openThreads(runId).length > 0);
		const choice = chooseRun(named, activeChangeRun(), withComments);
		if ('runId' in choice) return choice.runId;
		if ('gone' in choice) return this._deps.changes.pending(choice.gone) ? choice.gone : undefined;
		if (!('ask' in choice)) return undefined;
		const picked = await vscode.window.showQuickPick(
			choice.ask.map((runId) => ({
				runId,
				label: this._deps.changes.pending(runId)?.name ?? runId,
				description: vscode.l10n.t('{0} open comments', this.comments.openThreads(runId).length),
			})),
			{ placeHolder: vscode.l10n.t('Several change sets have comments: send which one to the team?') },
		);
		return picked?.runId;
	}

	private _ask(prompt: string): Promise<string | undefined> {
		if (this._deps.askText) return this._deps.askText(prompt);
		return Promise.resolve(
			vscode.window.showInputBox({
				prompt,
				placeHolder: vscode.l10n.t('What should the team change here?'),
				ignoreFocusOut: true,
				validateInput: (value) =>
					value.length > maxCommentChars
						? vscode.l10n.t('At most {0} characters.', maxCommentChars)
						: undefined,
			}),
		);
	}
}

function isThreadLike(value: unknown): value is { uri: vscode.Uri } {
	return typeof value === 'object' && value !== null && 'uri' in value && value.uri instanceof vscode.Uri;
}
