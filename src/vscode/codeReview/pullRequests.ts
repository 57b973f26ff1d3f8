import * as vscode from 'vscode';
import { type CheckedOutPullRequest, checkedOutPullRequest } from './reviewChangesArgs.js';

/** The GitHub Pull Requests extension (`GitHub.vscode-pull-request-github`). */
export const pullRequestExtensionId = 'GitHub.vscode-pull-request-github';

/**
 * What the GitHub Pull Requests extension says about `folder`: `absent` (not installed, or its API has
 * no `getRepositoryDescription`: Review Changes falls back to git), `none` (no pull request checked
 * out), or the pull request. Its diff is then read with git (`gitDiff`) from the merge base with the
 * default branch: the extension's API gives no diff of its own, and git is run hardened either way.
 */
export async function pullRequestOf(
	folder: vscode.Uri,
): Promise<
	{ readonly state: 'absent' | 'none' } | { readonly state: 'found'; readonly pr: CheckedOutPullRequest }
> {
	const extension = vscode.extensions.getExtension<unknown>(pullRequestExtensionId);
	if (!extension) return { state: 'absent' };
	try {
		const api = (extension.isActive ? extension.exports : await extension.activate()) as {
			getRepositoryDescription?: unknown;
		};
		if (typeof api?.getRepositoryDescription !== 'function') return { state: 'absent' };
		const answer: unknown = await (
			api.getRepositoryDescription as (uri: vscode.Uri) => Promise<unknown>
		).call(api, folder);
		const pr = checkedOutPullRequest(answer);
		return pr ? { state: 'found', pr } : { state: 'none' };
	} catch {
		return { state: 'absent' };
	}
}
