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

/** One `Addresses:` line (Markdown's list, quote, heading and emphasis marks allowed before it). */
const addressesPattern = /^[ \t*_>#-]*addresse[sd][*_]*[ \t]*:(.*)$/i;

/**
 * The comment ids an answer cites on its `Addresses:` lines, among the known ones. Only the lines
 * that hold the word are matched, each once: a pattern that let blanks run across lines took
 * quadratic time on an answer of blank lines (64 Ki of them stalled the shell for 18 s).
 */
export function addressedComments(answer: string, known: ReadonlySet<string>): Set<string> {
	const cited = new Set<string>();
	const text = answer.replace(/\r\n?|\u2028|\u2029/g, '\n');
	let done = 0;
	for (const word of text.matchAll(/addresse[sd]/gi)) {
		if (word.index < done) continue;
		const start = text.lastIndexOf('\n', word.index) + 1;
		const end = text.indexOf('\n', word.index);
		done = end < 0 ? text.length : end;
		const match = addressesPattern.exec(text.slice(start, done));
		for (const id of match?.[1]!.matchAll(/\bc(\d{1,3})\b/gi) ?? []) {
			const name = `c${Number(id[1])}`;
			if (known.has(name)) cited.add(name);
		}
	}
	return cited;
}
