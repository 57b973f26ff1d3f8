/** What a diff review is of: the working tree, the index, or a range of commits (`A..B`). */
export type ReviewedDiff = 'working-tree' | 'staged' | `${string}..${string}`;

function describe(diff: ReviewedDiff): string {
	if (diff === 'working-tree') return 'the uncommitted changes in the working tree (`git diff`)';
	if (diff === 'staged') return 'the staged changes (`git diff --cached`)';
	return `the changes from \`${diff.split('..')[0]}\` to \`${diff.split('..')[1]}\` (\`git diff ${diff}\`)`;
}

/**
 * The question a change review sends to the team; the diff itself travels as the run's `diff`
 * attachment (secret files left out by the context resolver). Findings come in the same ```findings
 * block a selection review uses (`parseFindings`), each with the file's path.
 */
export function diffReviewQuestion(diff: ReviewedDiff): string {
	const fence = '```';
	return [
		`Review ${describe(diff)}, attached as a git diff. Look for bugs, security problems, unclear or fragile code, and missing error handling that these changes introduce. Judge the changed lines; read the surrounding files with your tools where you need their context.`,
		'',
		"Report your findings in your answer in exactly one fenced block tagged `findings` holding a JSON list. `path` is the file's path relative to the workspace, as in the diff without its `a/` or `b/` prefix; `line` and the optional, inclusive `endLine` are line numbers in the changed version of the file (the `+` side of the hunk headers); `severity` is `error`, `warning` or `info`. Write `[]` if you find nothing. For example:",
		`${fence}findings`,
		'[{"path": "src/app.ts", "line": 12, "endLine": 14, "severity": "warning", "message": "What is wrong and why, in one or two sentences."}]',
		fence,
		'',
		'This is a review: do not change any file.',
	].join('\n');
}
