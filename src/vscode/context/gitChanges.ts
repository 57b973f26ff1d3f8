/**
 * The changed files of the workspace folder's repository, through the built-in git extension's
 * API (`vscode.git`, API version 1), for the git-changes picker to list. The attachment itself is
 * the core's `git diff` of the folder; this only shows the user what it will hold.
 */
import * as vscode from 'vscode';
import type { GitChange } from './contextChips.js';
import { workspacePath } from './editorAttachments.js';

/** The part of the git extension's API (its `git.d.ts`) this reads. */
interface GitApi {
	readonly repositories: readonly GitRepository[];
}

interface GitRepository {
	readonly rootUri: vscode.Uri;
	readonly state: {
		readonly workingTreeChanges: readonly { uri: vscode.Uri; status: number }[];
		readonly indexChanges: readonly { uri: vscode.Uri; status: number }[];
		readonly untrackedChanges?: readonly { uri: vscode.Uri; status: number }[];
	};
	status(): Promise<void>;
}

interface GitExtension {
	readonly enabled: boolean;
	getAPI(version: 1): GitApi;
}

export type GitChanges =
	| { readonly ok: true; readonly workingTree: GitChange[]; readonly index: GitChange[] }
	| { readonly ok: false; readonly reason: string };

/** The repository holding `folder` and its working tree and index changes, or why there are none to offer. */
export async function gitChanges(folder: vscode.Uri): Promise<GitChanges> {
	// Git obeys the repository's own config (fsmonitor, hooks, filters): not in Restricted Mode.
	if (!vscode.workspace.isTrusted) {
		return {
			ok: false,
			reason: vscode.l10n.t('git runs only in a trusted workspace (Manage Workspace Trust)'),
		};
	}
	const extension = vscode.extensions.getExtension<GitExtension>('vscode.git');
	if (!extension) return { ok: false, reason: vscode.l10n.t('the built-in Git extension is not installed') };
	const git = extension.isActive
		? extension.exports
		: await extension.activate().then(
				(exports) => exports,
				() => undefined,
			);
	if (!git?.enabled) {
		return { ok: false, reason: vscode.l10n.t('the built-in Git extension is disabled ("git.enabled")') };
	}
	const api = git.getAPI(1);
	const repository = api.repositories
		.filter((repo) => contains(repo.rootUri, folder))
		.sort((a, b) => b.rootUri.fsPath.length - a.rootUri.fsPath.length)[0];
	if (!repository) {
		return {
			ok: false,
			reason: vscode.l10n.t('the workspace folder is not in a git repository that Git has opened'),
		};
	}
	// The git view refreshes on its own schedule: ask for the current status.
	await repository.status().catch(() => undefined);
	const plain = (changes: readonly { uri: vscode.Uri; status: number }[]) =>
		changes.map((change) => ({ fsPath: change.uri.fsPath, status: change.status }));
	const { state } = repository;
	return {
		ok: true,
		workingTree: [...plain(state.workingTreeChanges), ...plain(state.untrackedChanges ?? [])],
		index: plain(state.indexChanges),
	};
}

/** `root` is `folder` or one of its parents. */
function contains(root: vscode.Uri, folder: vscode.Uri): boolean {
	return root.fsPath === folder.fsPath || workspacePath(root.fsPath, folder.fsPath) !== undefined;
}
