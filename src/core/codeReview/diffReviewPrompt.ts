import { findingsFormat } from './findingsFormat.js';

/** What a diff review is of: the working tree, the index, or a range of commits (`A..B`). */
export type ReviewedDiff = 'working-tree' | 'staged' | `${string}..${string}`;

function describe(diff: ReviewedDiff): string {
	if (diff === 'working-tree') return 'the uncommitted changes in the working tree (`git diff`)';
	if (diff === 'staged') return 'the staged changes (`git diff --cached`)';
	return `the changes from \`${diff.split('..')[0]}\` to \`${diff.split('..')[1]}\` (\`git diff ${diff}\`)`;
}

/**
 * The question a change review sends to the team. The diff itself is not in it: it travels once as
 * the run's `diff` attachment, in the prompt's `<CONTEXT>` section before the question, the same
 * bytes for every agent and call (`core/context/contextSection.ts`), so it stays in the cached
 * prefix. It asks for a review, not a rewrite: findings in a ```findings block (`parseFindings`),
 * each with the file's path, and at most small, certain fixes, which the user reviews as a change set.
 */
export function diffReviewQuestion(diff: ReviewedDiff): string {
	return [
		`Review ${describe(diff)}, attached above as a git diff. This is a code review, not a rewrite: find what is wrong with these changes — bugs, security problems, data loss, missing error handling, fragile or unclear code they introduce — and say why. Judge the changed lines; read the surrounding files with your tools where you need their context. Do not restyle, restructure or rewrite the changes.`,
		'',
		findingsFormat({
			where:
				"`path` is the file's path relative to the workspace, as in the diff without its `a/` or `b/` prefix; `line` and the optional, inclusive `endLine` are line numbers in the changed version of the file (the `+` side of the hunk headers).",
			example: { path: 'src/app.ts', line: 12, endLine: 14 },
		}),
		'',
		'If a finding has a small fix you are sure of, you may make it with the edit tools: it is proposed to the user as a change to review, never written by itself. Change nothing else.',
	].join('\n');
}
