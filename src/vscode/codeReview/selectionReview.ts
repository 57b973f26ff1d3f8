import * as vscode from 'vscode';
import type { MergedFinding } from '../../core/codeReview/agreement.js';
import { reviewOutcome } from '../../core/codeReview/reviewOutcome.js';
import { reviewQuestion } from '../../core/codeReview/reviewPrompt.js';
import { contextKeys } from '../common/commandIds.js';
import { Disposable } from '../common/lifecycle.js';
import type { FinishedRun, RunService } from '../run/runTypes.js';
import { errorDetail } from '../common/log.js';

export interface SelectionReviewDeps {
	readonly runs: RunService;
	readonly log: vscode.LogOutputChannel;
	/** Lines of context around the selection (default 20). */
	readonly contextLines?: number;
}

/** One finding shown as a comment thread (what tests and the API see). */
export interface FindingThread {
	readonly uri: vscode.Uri;
	/** 1-based, inclusive. */
	readonly line: number;
	readonly endLine: number;
	readonly severity: MergedFinding['severity'];
	readonly message: string;
	readonly agents: readonly string[];
	/** Agents whose answers were counted. */
	readonly of: number;
	readonly label: string;
	/** The comment thread itself (the argument Dismiss Finding takes). */
	readonly thread: vscode.CommentThread;
}

const severityTitle = (): Record<MergedFinding['severity'], string> => ({
	high: vscode.l10n.t('High'),
	medium: vscode.l10n.t('Medium'),
	low: vscode.l10n.t('Low'),
});

/**
 * "MassGen: Review Selection" (docs/changes.md): sends the selection with its path, line numbers and
 * surrounding lines to the team, then shows the winning review's findings as native comment
 * threads saying how many agents raised each. Fixes arrive as the run's change set.
 */
export class SelectionReview extends Disposable {
	private readonly _controller = this._register(
		vscode.comments.createCommentController('massgen-review', vscode.l10n.t('MassGen review')),
	);
	private readonly _threads = new Map<vscode.CommentThread, FindingThread>();

	constructor(private readonly _deps: SelectionReviewDeps) {
		super();
		this._controller.options = {
			placeHolder: vscode.l10n.t('MassGen findings are read-only'),
			prompt: vscode.l10n.t('MassGen review'),
		};
		this._register(
			_deps.runs.onDidFinishRun((run) => {
				if (run.request.kind === 'review') {
					void this._showFindings(run).catch((error: unknown) => this._fail(error));
				}
			}),
		);
		this._register({ dispose: () => this.clear() });
	}

	/** Every finding thread currently shown. */
	threads(): FindingThread[] {
		return [...this._threads.values()];
	}

	/** Reviews the active editor's selection (the whole file when nothing is selected). */
	async reviewSelection(): Promise<FinishedRun | undefined> {
		const editor = vscode.window.activeTextEditor;
		if (!editor) {
			void vscode.window.showInformationMessage(
				vscode.l10n.t('MassGen: open a file and select the code to review.'),
			);
			return undefined;
		}
		const doc = editor.document;
		if (doc.uri.scheme !== 'file' || !vscode.workspace.getWorkspaceFolder(doc.uri)) {
			void vscode.window.showInformationMessage(
				vscode.l10n.t('MassGen: the team reviews files of the open workspace folder.'),
			);
			return undefined;
		}
		if (doc.isDirty) {
			const save = vscode.l10n.t('Save and Review');
			const choice = await vscode.window.showWarningMessage(
				vscode.l10n.t(
					'MassGen: the team reads files from disk, and {0} has unsaved changes.',
					vscode.workspace.asRelativePath(doc.uri, false),
				),
				save,
			);
			if (choice !== save || !(await doc.save())) return undefined;
		}
		const selection = editor.selection;
		const whole = selection.isEmpty;
		const start = whole ? 0 : selection.start.line;
		// A selection ending at column 0 of a line does not include that line.
		const end = whole
			? doc.lineCount
			: selection.end.character === 0 && selection.end.line > start
				? selection.end.line
				: selection.end.line + 1;
		const path = vscode.workspace.asRelativePath(doc.uri, false).replace(/\\/g, '/');
		const question = reviewQuestion({
			path,
			languageId: doc.languageId,
			lines: doc.getText().split(/\r?\n/),
			startLine: start + 1,
			endLine: end,
			context: this._deps.contextLines,
		});
		this._deps.log.info(`review: ${path} lines ${start + 1}-${end}`);
		return this._deps.runs.start({
			question,
			kind: 'review',
			review: { uri: doc.uri, path, startLine: start, endLine: end },
		});
	}

	dismiss(thread: unknown): void {
		const known = [...this._threads.keys()].find((candidate) => candidate === thread);
		if (!known) return;
		this._threads.delete(known);
		known.dispose();
		this._updateContext();
	}

	clear(uri?: vscode.Uri): void {
		for (const [thread, finding] of this._threads) {
			if (uri && finding.uri.toString() !== uri.toString()) continue;
			this._threads.delete(thread);
			thread.dispose();
		}
		this._updateContext();
	}

	private async _showFindings(run: FinishedRun): Promise<void> {
		const { result, request } = run;
		const target = request.review;
		if (
			!target ||
			result.finalAnswer === null ||
			result.status === 'cancelled' ||
			result.status === 'failed'
		) {
			return;
		}
		const { agreed, single, of } = reviewOutcome(result);
		const doc = await vscode.workspace.openTextDocument(target.uri);
		this.clear(target.uri);
		for (const finding of [...agreed, ...single]) {
			if (finding.line > doc.lineCount) continue;
			this._addThread(doc, finding, of);
		}
		this._updateContext();
		const shown = this.threads().filter((thread) => thread.uri.toString() === target.uri.toString());
		this._deps.log.info(`review: run ${result.runId}: ${shown.length} finding(s) on ${target.path}`);
		const changes =
			result.changes.length > 0 ? vscode.l10n.t(' Its fixes are shown as a diff to review.') : '';
		const summary =
			shown.length === 0
				? of === 1
					? vscode.l10n.t(
							'MassGen: the team found no problems in {0} (1 agent reviewed it).{1}',
							target.path,
							changes,
						)
					: vscode.l10n.t(
							'MassGen: the team found no problems in {0} ({1} agents reviewed it).{2}',
							target.path,
							of,
							changes,
						)
				: shown.length === 1
					? vscode.l10n.t('MassGen: 1 finding on {0}, shown as comments.{1}', target.path, changes)
					: vscode.l10n.t(
							'MassGen: {0} findings on {1}, shown as comments.{2}',
							shown.length,
							target.path,
							changes,
						);
		void vscode.window.showInformationMessage(summary);
	}

	private _addThread(doc: vscode.TextDocument, finding: MergedFinding, of: number): void {
		const endLine = Math.min(finding.endLine, doc.lineCount);
		const range = new vscode.Range(finding.line - 1, 0, endLine - 1, doc.lineAt(endLine - 1).text.length);
		const raised =
			of === 1
				? vscode.l10n.t('raised by {0} of 1 agent', finding.agents.length)
				: vscode.l10n.t('raised by {0} of {1} agents', finding.agents.length, of);
		const label = `${severityTitle()[finding.severity]} · ${raised}${finding.inWinner ? '' : vscode.l10n.t(' · not in the winning review')}`;
		// A plain-string body is shown as text: nothing the model wrote is rendered as Markdown.
		const comment: vscode.Comment = {
			body: finding.message,
			mode: vscode.CommentMode.Preview,
			author: { name: 'MassGen' },
			contextValue: 'massgen-finding',
			label: finding.agents.join(', '),
		};
		const thread = this._controller.createCommentThread(doc.uri, range, [comment]);
		thread.label = label;
		thread.canReply = false;
		thread.contextValue = 'massgen-finding';
		thread.collapsibleState = vscode.CommentThreadCollapsibleState.Expanded;
		this._threads.set(thread, {
			uri: doc.uri,
			line: finding.line,
			endLine,
			severity: finding.severity,
			message: finding.message,
			agents: finding.agents,
			of,
			label,
			thread,
		});
	}

	private _updateContext(): void {
		void vscode.commands.executeCommand('setContext', contextKeys.hasReviewComments, this._threads.size > 0);
	}

	private _fail(error: unknown): void {
		this._deps.log.error(`review: ${errorDetail(error)}`);
	}
}
