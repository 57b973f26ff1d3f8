import * as vscode from 'vscode';
import { AttachmentError, commitRange, type DiffSource } from '../../core/context/attachment.js';
import { type GitRepo, openGitRepo } from '../../core/context/gitRevision.js';
import { pullRequestOf } from './pullRequests.js';

/** A diff the user chose to review, and its name in the messages. */
export interface PickedDiff {
	readonly source: DiffSource;
	readonly label: string;
}

export type DiffChoice = 'working' | 'staged' | 'range' | 'pull-request';

export interface DiffSourceItem extends vscode.QuickPickItem {
	readonly choice: DiffChoice;
}

/** The diff in words (messages, the findings list). */
export function diffWords(source: DiffSource): string {
	if (source === 'working-tree') return vscode.l10n.t('the working tree changes');
	if (source === 'staged') return vscode.l10n.t('the staged changes');
	return source;
}

/**
 * The picker's rows: the working tree, the staged changes, a branch range (default
 * `<default branch>..HEAD`) and the pull request: the one the GitHub Pull Requests extension has
 * checked out, else (extension absent, or no pull request) this branch since the default branch,
 * from git, which the row says.
 */
export async function diffSourceItems(folder: vscode.Uri, repo: GitRepo): Promise<DiffSourceItem[]> {
	const [base, pr] = await Promise.all([repo.defaultBranch(), pullRequestOf(folder)]);
	const since = base ?? 'main';
	const pullRequest: DiffSourceItem =
		pr.state === 'found'
			? {
					choice: 'pull-request',
					label: `$(git-pull-request) ${vscode.l10n.t('Pull Request #{0}', pr.pr.number)}`,
					description: noIcons(pr.pr.title),
					detail: vscode.l10n.t(
						'From GitHub Pull Requests: its changes since {0} (merge base), read with git',
						pr.pr.defaultBranch,
					),
				}
			: {
					choice: 'pull-request',
					label: `$(git-pull-request) ${vscode.l10n.t('Pull Request (from git)')}`,
					description: `${since}...HEAD`,
					detail:
						pr.state === 'absent'
							? vscode.l10n.t(
									'The GitHub Pull Requests extension is not installed: reviews this branch since {0} (merge base) with git',
									since,
								)
							: vscode.l10n.t(
									'No pull request is checked out: reviews this branch since {0} (merge base) with git',
									since,
								),
				};
	return [
		{
			choice: 'working',
			label: `$(edit) ${vscode.l10n.t('Working Tree')}`,
			description: 'git diff',
			detail: vscode.l10n.t('The uncommitted changes of tracked files'),
		},
		{
			choice: 'staged',
			label: `$(diff-added) ${vscode.l10n.t('Staged Changes')}`,
			description: 'git diff --cached',
			detail: vscode.l10n.t('What the next commit would hold'),
		},
		{
			choice: 'range',
			label: `$(git-compare) ${vscode.l10n.t('Branch Range…')}`,
			description: `${since}..HEAD`,
			detail: vscode.l10n.t('Two commits, branches or tags A..B (git diff A..B)'),
		},
		pullRequest,
	];
}

/** Asks which diff to review; undefined when the user dismissed a step or it cannot be read (told). */
export async function pickDiffSource(folder: vscode.Uri): Promise<PickedDiff | undefined> {
	const repo = await openRepoOrTell(folder);
	if (!repo) return undefined;
	const picked = await vscode.window.showQuickPick(diffSourceItems(folder, repo), {
		title: vscode.l10n.t('MassGen: Review Changes'),
		placeHolder: vscode.l10n.t('Which changes should the team review?'),
		matchOnDetail: true,
		ignoreFocusOut: true,
	});
	return picked ? resolveChoice(picked.choice, folder, repo) : undefined;
}

/** The diff for a choice: a range asks for `A..B`; a pull request finds its merge base. */
export async function resolveChoice(
	choice: DiffChoice,
	folder: vscode.Uri,
	repo: GitRepo,
): Promise<PickedDiff | undefined> {
	if (choice === 'working') return { source: 'working-tree', label: diffWords('working-tree') };
	if (choice === 'staged') return { source: 'staged', label: diffWords('staged') };
	const base = await repo.defaultBranch();
	if (choice === 'range') {
		const typed = await vscode.window.showInputBox({
			title: vscode.l10n.t('MassGen: Review a Branch Range'),
			prompt: vscode.l10n.t('Review the changes from A to B (git diff A..B)'),
			value: `${base ?? 'main'}..HEAD`,
			ignoreFocusOut: true,
			validateInput: (text) =>
				commitRange(text.trim())
					? undefined
					: vscode.l10n.t('Two revisions joined by "..", such as main..HEAD'),
		});
		const range = typed === undefined ? undefined : commitRange(typed.trim());
		return range ? { source: range, label: range } : undefined;
	}
	const pr = await pullRequestOf(folder);
	const branch = pr.state === 'found' ? pr.pr.defaultBranch : base;
	const remote = branch && !branch.includes('/') ? `origin/${branch}` : undefined;
	const mergeBase =
		(remote && (await repo.mergeBase(remote, 'HEAD'))) ||
		(branch ? await repo.mergeBase(branch, 'HEAD') : undefined);
	if (!branch || !mergeBase) {
		void vscode.window.showErrorMessage(
			vscode.l10n.t(
				'MassGen: cannot find where this branch left {0}: review a branch range instead.',
				branch ?? 'main',
			),
		);
		return undefined;
	}
	const source = commitRange(`${mergeBase}..HEAD`);
	if (!source) return undefined;
	return {
		source,
		label:
			pr.state === 'found'
				? vscode.l10n.t('pull request #{0}', pr.pr.number)
				: vscode.l10n.t('this branch since {0}', branch),
	};
}

/** The repository of `folder`, or undefined after telling the user why it cannot be read. */
export async function openRepoOrTell(folder: vscode.Uri): Promise<GitRepo | undefined> {
	try {
		return await openGitRepo(folder.fsPath);
	} catch (error) {
		if (!AttachmentError.is(error)) throw error;
		void vscode.window.showErrorMessage(
			vscode.l10n.t('MassGen: cannot review the changes: {0}', error.message),
		);
		return undefined;
	}
}

/** Text from elsewhere in a quick pick: no `$(icon)` syntax. */
export function noIcons(text: string): string {
	return text.replace(/\$\(/g, '$\u200b(');
}
