import * as vscode from 'vscode';
import { reviewAnswered, reviewOutcome } from '../../core/codeReview/reviewOutcome.js';
import { reviewQuestion } from '../../core/codeReview/reviewPrompt.js';
import { Disposable } from '../common/lifecycle.js';
import type { FindingThreads } from './findingThreads.js';
import type { FinishedRun, RunService } from '../run/runTypes.js';
import { errorDetail } from '../common/log.js';

export interface SelectionReviewDeps {
	readonly runs: RunService;
	readonly log: vscode.LogOutputChannel;
	/** Where the findings are shown (shared with Review Changes). */
	readonly threads: FindingThreads;
	/** Lines of context around the selection (default 20). */
	readonly contextLines?: number;
}

/**
 * "MassGen: Review Selection" (docs/changes.md): sends the selection with its path, line numbers and
 * surrounding lines to the team, then shows the winning review's findings as native comment
 * threads saying how many agents raised each. Fixes arrive as the run's change set.
 */
export class SelectionReview extends Disposable {
	constructor(private readonly _deps: SelectionReviewDeps) {
		super();
		this._register(
			_deps.runs.onDidFinishRun((run) => {
				if (run.request.kind === 'review') {
					void this._showFindings(run).catch((error: unknown) => this._fail(error));
				}
			}),
		);
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

	private async _showFindings(run: FinishedRun): Promise<void> {
		const { result, request } = run;
		const target = request.review;
		if (!target || !reviewAnswered(result)) return;
		const { agreed, single, of } = reviewOutcome(result);
		const doc = await vscode.workspace.openTextDocument(target.uri);
		const threads = this._deps.threads;
		threads.clear(target.uri);
		for (const finding of agreed) threads.add(doc, finding, of);
		for (const finding of single) threads.add(doc, finding, of, true);
		const shown = threads.threads().filter((thread) => thread.uri.toString() === target.uri.toString());
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

	private _fail(error: unknown): void {
		this._deps.log.error(`review: ${errorDetail(error)}`);
	}
}
