/**
 * The prompt's `<REVIEW COMMENTS>` section: the user's comments on the proposal the team is
 * revising, each with its id, anchor and the lines it is on, and the lines the user wrote
 * themselves. The same bytes for every agent and every phase, beside the other context sections
 * in the cached prefix.
 */
import { quotedModelText } from './quotedText.js';
import type { Revision } from './revision.js';

/** How agents cite the comments their answer addresses; `addressedComments` reads it back. */
export const addressesLine = 'Addresses:';

/** Empty without a revision (the prompt then has no section). */
export function reviewSection(revision: Revision | undefined): string {
	if (!revision) return '';
	const files = [...revision.proposed.keys()];
	const lines = [
		'<REVIEW COMMENTS>',
		`The user reviewed the team's proposed file changes and sends them back for revision. Your workspace copy already holds that proposal${
			files.length ? ` (${files.map((path) => JSON.stringify(path)).join(', ')})` : ''
		}: revise it, do not start over. Address every comment below in your file edits (or say why not).`,
		`End your answer with one line \`${addressesLine} c1, c2\` naming the comments your answer addresses.`,
	];
	for (const comment of revision.comments) {
		const where = comment.endLine > comment.line ? `${comment.line}-${comment.endLine}` : `${comment.line}`;
		lines.push(
			`<comment id="${comment.id}" path=${quotedModelText(JSON.stringify(comment.path))} lines="${where}">`,
			'The lines (of the proposal):',
			quotedModelText(comment.quote),
			'The user wrote:',
			comment.text,
			'</comment>',
		);
	}
	for (const [path, ranges] of revision.userEdited) {
		const where = ranges.map((r) => (r.endLine > r.line ? `${r.line}-${r.endLine}` : `${r.line}`)).join(', ');
		lines.push(
			`The user edited ${quotedModelText(JSON.stringify(path))} themselves (lines ${where} of the proposal): keep their lines unless a comment asks otherwise.`,
		);
	}
	lines.push('</REVIEW COMMENTS>');
	return lines.join('\n');
}

/** The comment ids an answer cites on its `Addresses:` lines, among the known ones. */
export function addressedComments(answer: string, known: ReadonlySet<string>): Set<string> {
	const cited = new Set<string>();
	for (const match of answer.matchAll(/^[\s*_>#-]*addresse[sd][*_]*\s*:(.*)$/gim)) {
		for (const id of match[1]!.matchAll(/\bc(\d{1,3})\b/gi)) {
			const name = `c${Number(id[1])}`;
			if (known.has(name)) cited.add(name);
		}
	}
	return cited;
}
