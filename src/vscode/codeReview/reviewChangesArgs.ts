// What Review Changes reads from its arguments and from the GitHub Pull Requests extension, and how
// pure, no `vscode` import (test/unit/vscode/reviewChangesArgs.test.ts).
import { z } from 'zod';
import { commitRange, type DiffSource, isRevision } from '../../core/context/attachment.js';

/**
 * The diff a command argument names: `working` / `working-tree`, `staged`, `A..B`, `{ source }`, or
 * a Source Control resource group (the git extension's `index` is the staged changes,
 * `workingTree` and `untracked` the working tree's). Undefined: ask the user.
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
	if (id === 'workingTree' || id === 'untracked') return 'working-tree';
	return undefined;
}

/** The pull request checked out in a folder, as the GitHub Pull Requests extension describes it. */
export interface CheckedOutPullRequest {
	readonly number: number;
	readonly title: string;
	/** The repository's default branch (the API names no other base for the pull request). */
	readonly defaultBranch: string;
}

const description = z.object({
	defaultBranch: z.string().min(1).max(200),
	pullRequest: z.object({ number: z.number().int().positive(), title: z.string().max(1_000) }).optional(),
});

/**
 * `getRepositoryDescription(uri)`'s answer (the extension's API, `src/api/api.d.ts`), checked: the
 * pull request and the default branch, or undefined when none is checked out or the shape is not
 * the one known (another extension's data is not trusted).
 */
export function checkedOutPullRequest(answer: unknown): CheckedOutPullRequest | undefined {
	const parsed = description.safeParse(answer);
	if (!parsed.success || !parsed.data.pullRequest || !isRevision(parsed.data.defaultBranch)) return undefined;
	const { number, title } = parsed.data.pullRequest;
	return { number, title: title.replace(/\s+/g, ' ').trim(), defaultBranch: parsed.data.defaultBranch };
}
