import * as vscode from 'vscode';
import type { MergedFinding } from '../../core/codeReview/agreement.js';
import { diffReviewQuestion } from '../../core/codeReview/diffReviewPrompt.js';
import { reviewAnswered, reviewOutcome } from '../../core/codeReview/reviewOutcome.js';
import { AttachmentError } from '../../core/context/attachment.js';
import { gitDiff } from '../../core/context/gitDiff.js';
import { type GitRepo, openGitRepo } from '../../core/context/gitRevision.js';
import { Disposable } from '../common/lifecycle.js';
import { errorDetail } from '../common/log.js';
import { chooseRunFolder } from '../common/runFolders.js';
import type { FinishedRun, RunService } from '../run/runTypes.js';
import {
	type DiffChoice,
	diffWords,
	noIcons,
	type PickedDiff,
	pickDiffSource,
	resolveChoice,
	openRepoOrTell,
} from './diffSourcePick.js';
import type { FindingThread, FindingThreads } from './findingThreads.js';
import { sourceFromArgument } from './reviewChangesArgs.js';
import type { ReviewSide, ReviewSides } from './reviewSides.js';

export interface DiffReviewDeps {
	readonly runs: RunService;
	readonly log: vscode.LogOutputChannel;
	readonly threads: FindingThreads;
	readonly sides: ReviewSides;
}

/** One finding of the last diff review, where it is shown (what the findings list and tests see). */
export interface ListedFinding {
	/** The review run it comes from. */
	readonly runId: string;
	readonly finding: MergedFinding;
	readonly of: number;
	/** Raised by one agent of several: shown apart. */
	readonly single: boolean;
	/** Where its thread is; undefined when its file is not on the diff's new side. */
	readonly side: ReviewSide | undefined;
	readonly thread: FindingThread | undefined;
}

/**
 * "MassGen: Review Changes" (docs/changes.md): the working tree, the staged changes, a branch range
 * or a pull request reviewed by the whole team as one normal run (the panel, budgets, trust and the
 * queue apply). When it ends, each finding becomes a comment thread on the diff's new side, saying
 * how many agents raised it; findings only one agent raised are collapsed and marked apart; fixes
 * arrive as the run's change set.
 */
export class DiffReview extends Disposable {
	private _listed: readonly ListedFinding[] = [];
	private _title = '';
	private readonly _shownThreads = new Set<vscode.CommentThread>();

	constructor(private readonly _deps: DiffReviewDeps) {
		super();
		this._register(
			_deps.runs.onDidFinishRun((run) => {
				if (run.request.diffReview) {
					void this._showFindings(run).catch((error: unknown) =>
						_deps.log.error(`review changes: ${errorDetail(error)}`),
					);
				}
			}),
		);
	}

	/** The last diff review's findings, agreed first, then those one agent raised. */
	findings(): readonly ListedFinding[] {
		return this._listed;
	}

	/**
	 * Reviews a diff: the argument's (`working`, `staged`, `A..B`, `pull-request`, a Source Control
	 * resource group or the repository), else the one the user picks.
	 */
	async review(arg?: unknown): Promise<FinishedRun | undefined> {
		const chosen = await chooseRunFolder(hintOf(arg));
		if (chosen === 'none') {
			void vscode.window.showInformationMessage(
				vscode.l10n.t('MassGen: open a folder first; the team reviews its git changes.'),
			);
			return undefined;
		}
		if (!chosen) return undefined;
		const folder = chosen.uri;
		const picked = await this._pick(arg, folder);
		if (!picked) return undefined;
		let files: string[];
		try {
			// Only the names (every file "refused" here): nothing to review, no team run.
			files = (await gitDiff(folder.fsPath, picked.source, () => 'listed')).omitted.map((file) => file.path);
		} catch (error) {
			if (!AttachmentError.is(error)) throw error;
			void vscode.window.showErrorMessage(
				vscode.l10n.t(
					'MassGen: cannot review the changes: {0}',
					error.message.replace('cannot attach the git diff: ', ''),
				),
			);
			return undefined;
		}
		if (files.length === 0) {
			void vscode.window.showInformationMessage(
				vscode.l10n.t('MassGen: nothing to review in {0}.', picked.label),
			);
			return undefined;
		}
		this._deps.log.info(`review changes: ${picked.source} (${files.length} file(s))`);
		return this._deps.runs.start({
			question: diffReviewQuestion(picked.source),
			kind: 'review',
			folder,
			attachments: [{ kind: 'diff', source: picked.source }],
			diffReview: { source: picked.source, label: picked.label, files },
		});
	}

	/** The last diff review's findings in a quick pick; the one picked is opened at its lines. */
	async showFindings(): Promise<void> {
		// Dismissed or cleared threads are gone from the list too; with none left, so is the review.
		const { threads } = this._deps;
		const listed = this._listed.some((item) => item.thread && threads.isShown(item.thread))
			? this._listed.filter((item) => !item.thread || threads.isShown(item.thread))
			: [];
		if (listed.length === 0) {
			void vscode.window.showInformationMessage(vscode.l10n.t('MassGen: no review findings to show.'));
			return;
		}
		type Item = vscode.QuickPickItem & { listed?: ListedFinding };
		const row = (listed: ListedFinding): Item => {
			const { finding } = listed;
			const where = `${finding.path ?? '?'}:${finding.line}${finding.endLine > finding.line ? `-${finding.endLine}` : ''}`;
			return {
				label: `${severityIcon[finding.severity]} ${noIcons(where)}`,
				description: listed.thread?.label ?? vscode.l10n.t('not on the diff’s new side'),
				detail: noIcons(finding.message.replace(/\s+/g, ' ').trim()),
				listed,
			};
		};
		const agreed = listed.filter((item) => !item.single);
		const single = listed.filter((item) => item.single);
		const items: Item[] = [
			...(agreed.length > 0
				? [
						{ label: vscode.l10n.t('Agreed findings'), kind: vscode.QuickPickItemKind.Separator },
						...agreed.map(row),
					]
				: []),
			...(single.length > 0
				? [
						{ label: vscode.l10n.t('Raised by one agent only'), kind: vscode.QuickPickItemKind.Separator },
						...single.map(row),
					]
				: []),
		];
		const picked = await vscode.window.showQuickPick(items, {
			title: this._title,
			placeHolder: vscode.l10n.t('Open a finding at its lines'),
			matchOnDetail: true,
		});
		if (picked?.listed) await this.reveal(picked.listed);
	}

	/** Opens a finding's file (the diff of a virtual new side) at its lines, its thread expanded. */
	async reveal(listed: ListedFinding): Promise<void> {
		const { side, thread } = listed;
		if (!side || !thread) return;
		const selection = new vscode.Range(listed.thread!.line - 1, 0, listed.thread!.line - 1, 0);
		if (side.diff) {
			await vscode.commands.executeCommand(
				'vscode.diff',
				side.diff.left,
				side.diff.right,
				`${side.diff.right.path.replace(/^\//, '')} (${this._title})`,
				{ selection, preview: true },
			);
		} else {
			await vscode.window.showTextDocument(side.uri, { selection, preview: true });
		}
		thread.thread.collapsibleState = vscode.CommentThreadCollapsibleState.Expanded;
	}

	private async _pick(arg: unknown, folder: vscode.Uri): Promise<PickedDiff | undefined> {
		const source = sourceFromArgument(arg);
		if (source) return { source, label: diffWords(source) };
		const choice = choiceOf(arg);
		if (!choice) return pickDiffSource(folder);
		const repo = await openRepoOrTell(folder);
		return repo ? resolveChoice(choice, folder, repo) : undefined;
	}

	private async _showFindings(run: FinishedRun): Promise<void> {
		const { result, request, folder } = run;
		const target = request.diffReview;
		if (!target || !reviewAnswered(result)) return;
		const { agreed, single, of } = reviewOutcome(result);
		// The previous diff review's threads give way (Review Selection's stay).
		for (const thread of this._shownThreads) this._deps.threads.dismiss(thread);
		this._shownThreads.clear();
		let repo: Promise<GitRepo> | undefined;
		const openRepo = () => (repo ??= openGitRepo(folder.uri.fsPath));
		const listed: ListedFinding[] = [];
		for (const [finding, isSingle] of [
			...agreed.map((f) => [f, false] as const),
			...single.map((f) => [f, true] as const),
		]) {
			// Only a file of the reviewed diff: a path the model made up is listed, never opened.
			const path = finding.path;
			const side =
				path !== undefined && target.files.includes(path)
					? await this._deps.sides
							.sideOf(result.runId, folder.uri, target.source, path, openRepo)
							.catch(() => undefined)
					: undefined;
			const doc = side && (await vscode.workspace.openTextDocument(side.uri));
			const thread = doc ? this._deps.threads.add(doc, finding, of, isSingle) : undefined;
			if (thread) this._shownThreads.add(thread.thread);
			listed.push({
				runId: result.runId,
				finding,
				of,
				single: isSingle,
				side: thread ? side : undefined,
				thread,
			});
		}
		this._listed = listed;
		this._title = vscode.l10n.t('MassGen review of {0}', target.label);
		this._deps.log.info(
			`review changes: run ${result.runId}: ${agreed.length} agreed, ${single.length} single-agent finding(s)`,
		);
		const changes =
			result.changes.length > 0 ? vscode.l10n.t(' Its fixes are shown as a diff to review.') : '';
		if (listed.length === 0) {
			void vscode.window.showInformationMessage(
				of === 1
					? vscode.l10n.t(
							'MassGen: the team found no problems in {0} (1 agent reviewed it).{1}',
							target.label,
							changes,
						)
					: vscode.l10n.t(
							'MassGen: the team found no problems in {0} ({1} agents reviewed it).{2}',
							target.label,
							of,
							changes,
						),
			);
			return;
		}
		const list = vscode.l10n.t('List Findings');
		const choice = await vscode.window.showInformationMessage(
			vscode.l10n.t(
				'MassGen: findings in {0}, shown as comments: {1} agreed, {2} raised by one agent only.{3}',
				target.label,
				agreed.length,
				single.length,
				changes,
			),
			list,
		);
		if (choice === list) await this.showFindings();
	}
}

const severityIcon: Record<MergedFinding['severity'], string> = {
	high: '$(error)',
	medium: '$(warning)',
	low: '$(info)',
};

/** `pull-request` (or `{ source: 'pull-request' }`): the pull request, resolved as the picker would. */
function choiceOf(arg: unknown): DiffChoice | undefined {
	const value = typeof arg === 'object' && arg !== null ? (arg as { source?: unknown }).source : arg;
	return value === 'pull-request' ? 'pull-request' : undefined;
}

/** The folder hint of a Source Control argument: a repository's root, a resource group's first file. */
function hintOf(arg: unknown): vscode.Uri | undefined {
	if (typeof arg !== 'object' || arg === null) return undefined;
	const { rootUri, resourceStates, folder } = arg as {
		rootUri?: unknown;
		resourceStates?: readonly { resourceUri?: unknown }[];
		folder?: unknown;
	};
	for (const candidate of [
		folder,
		rootUri,
		Array.isArray(resourceStates) ? resourceStates[0]?.resourceUri : undefined,
	]) {
		if (candidate instanceof vscode.Uri) return candidate;
	}
	return undefined;
}
