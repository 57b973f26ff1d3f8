// What Review Changes reads from its arguments and from the GitHub Pull Requests extension, and how
// pure, no `vscode` import (test/unit/vscode/reviewChangesArgs.test.ts).
import { commitRange, type DiffSource, isRevision } from '../../core/context/attachment.js';

/**
 * The diff a command argument names: `working` / `working-tree`, `staged`, `A..B`, `{ source }`, or
 * a Source Control resource group (the git extension's `index` is the staged changes,
 * `workingTree` the working tree's; untracked files are in no git diff). Undefined: ask the user.
 */
export function sourceFromArgument(arg: unknown): DiffSource | undefined {
	if (typeof arg === 'string') {
		if (arg === 'working' || arg === 'working-tree') return 'working-tree';
		if (arg === 'staged') return 'staged';
		return commitRange(arg);
	}
	if (typeof arg !== 'object' || arg === null) return undefined;
	const { id, source } = arg as { id?: unknown; source?: unknown };
	if (typeof source === 'string') return sourceFromArgument(source);
	if (id === 'index') return 'staged';
	if (id === 'workingTree') return 'working-tree';
	return undefined;
}

/** The pull request checked out in a folder, as the GitHub Pull Requests extension describes it. */
export interface CheckedOutPullRequest {
	readonly number: number;
	readonly title: string;
	/** The repository's default branch (the API names no other base for the pull request). */
	readonly defaultBranch: string;
}

/**
 * `getRepositoryDescription(uri)`'s answer (the extension's API, `src/api/api.d.ts`), checked field
 * by field (no zod: it stays out of the extension bundle): the pull request and the default branch,
 * or undefined when none is checked out or the shape is not the one known (another extension's data
 * is not trusted).
 */
export function checkedOutPullRequest(answer: unknown): CheckedOutPullRequest | undefined {
	if (typeof answer !== 'object' || answer === null) return undefined;
	const { defaultBranch, pullRequest } = answer as { defaultBranch?: unknown; pullRequest?: unknown };
	if (typeof defaultBranch !== 'string' || defaultBranch.length > 200 || !isRevision(defaultBranch)) {
		return undefined;
	}
	if (typeof pullRequest !== 'object' || pullRequest === null) return undefined;
	const { number, title } = pullRequest as { number?: unknown; title?: unknown };
	if (typeof number !== 'number' || !Number.isSafeInteger(number) || number <= 0) return undefined;
	if (typeof title !== 'string') return undefined;
	return { number, title: title.slice(0, 1_000).replace(/\s+/g, ' ').trim(), defaultBranch };
}
