import type { LineRange, ProposalFile } from '../../contract/revision.js';
import { type ReviewFile, type ReviewHunk, targetOf } from './changeSet.js';
import { type Hunk, sameHunk, splitHunks } from './hunks.js';
import { planFile } from './planFile.js';

/** The user's text for a file's proposal, and the team's proposal it replaced. */
export interface UserProposal {
	readonly text: string;
	/** The team's proposed text when the user first edited it (what "the user's own lines" are measured against). */
	readonly teamText: string;
	/** The file as the team proposed it, and its selection then (Discard My Edit goes back to both). */
	readonly team: ReviewFile;
	readonly teamSelection: ReadonlySet<string>;
	/** The file whose proposal is the user's text: base → text, split into hunks. */
	readonly file: ReviewFile;
}

/**
 * A file's proposal once the user wrote its text: its hunks are base → `text`. A hunk that is one of
 * the team's (the winner's, or a runner-up's that was selected) keeps its id and consensus marks;
 * any other is marked `byUser`. Runner-up hunks are no longer offered (the user's text is the
 * proposal). A deletion the user gave text to becomes a modification.
 */
export function withUserText(team: ReviewFile, text: string, selected: ReadonlySet<string>): ReviewFile {
	const kind = team.kind === 'delete' && text !== '' ? 'modify' : team.kind;
	const chosen = team.alternatives.filter((alt) => selected.has(alt.id));
	let own = 0;
	const hunks = splitHunks(team.base, text).map((hunk): ReviewHunk => {
		const winner = team.hunks.find((candidate) => sameHunk(candidate, hunk));
		if (winner) return { ...hunk, id: winner.id, agreeing: winner.agreeing, similar: winner.similar };
		const alt = chosen.find((candidate) => sameHunk(candidate, hunk));
		if (alt) return { ...hunk, id: alt.id, agreeing: [], similar: [], from: alt.from };
		return { ...hunk, id: `you#${own++}`, agreeing: [], similar: [], byUser: true };
	});
	// An emptied added file still has one (empty) hunk to select, as buildReviewChangeSet gives it.
	if (hunks.length === 0 && kind === 'add') {
		hunks.push({ ...emptyHunk, id: 'you#0', agreeing: [], similar: [], byUser: true });
	}
	return { ...team, kind, final: text, hunks, alternatives: [] };
}

const emptyHunk: Hunk = { oldStart: 0, oldLines: 0, newStart: 0, newLines: 0, removed: '', added: '' };

/**
 * What Accept would write for a file with a selection (`targetOf`), as the team is told it: the
 * text, null for a deletion (or an added file left out), the base when nothing is selected.
 */
export function proposedContent(file: ReviewFile, selected: ReadonlySet<string>): string | null {
	const target = targetOf(file, selected);
	if (target.op === 'write') return target.text;
	if (target.op === 'delete') return null;
	return file.kind === 'add' ? null : file.base;
}

/**
 * The lines of the proposed text (the user's file with `selected` hunks) that the user wrote: the
 * lines of `proposal.text` that are not in the team's text, where they are in the proposal now
 * (a hunk of the user's file left out takes its lines with it).
 */
export function userEditedLines(proposal: UserProposal, selected: ReadonlySet<string>): LineRange[] {
	const own = new Set<number>();
	for (const hunk of splitHunks(proposal.teamText, proposal.text)) {
		for (let line = hunk.newStart; line < hunk.newStart + hunk.newLines; line++) own.add(line);
	}
	const lines: number[] = [];
	let shift = 0;
	let next = 0;
	const hunks = [...proposal.file.hunks].sort((a, b) => a.newStart - b.newStart);
	const total = proposal.text === '' ? 0 : proposal.text.split(/(?<=\n)/).length;
	for (let line = 0; line < total; line++) {
		while (next < hunks.length && hunks[next]!.newStart + hunks[next]!.newLines <= line) {
			const passed = hunks[next]!;
			if (!selected.has(passed.id)) shift += passed.oldLines - passed.newLines;
			next++;
		}
		const inside = hunks[next];
		const dropped = inside && inside.newStart <= line && !selected.has(inside.id);
		if (!dropped && own.has(line)) lines.push(line + shift + 1);
	}
	return toRanges(lines);
}

/**
 * A pending file as the team is told it on a follow-up (`RevisionRequest.files`): what Accept
 * would write now onto the file as the user has it (`current`: buffer or disk, null: no file,
 * undefined: not read yet, taken as the base), merged three-way as Accept merges it, and the lines
 * the user wrote: their edit of the proposal and their own edits of the file. Undefined for a file
 * with nothing selected (the team is asked about what the user would accept) and for one whose
 * merge conflicts (Accept would ask; the team revises the rest).
 */
export function proposalOnCurrent(
	input: {
		readonly file: ReviewFile;
		readonly selected: ReadonlySet<string>;
		readonly current: string | null | undefined;
		readonly proposal?: UserProposal;
	},
	hash: (text: string) => string,
): ProposalFile | undefined {
	const { file, selected, current, proposal } = input;
	if (targetOf(file, selected).op === 'none') return undefined;
	const proposed = proposedContent(file, selected);
	let content: string | null = proposed;
	if (current !== undefined) {
		const plan = planFile(file, targetOf(file, selected), current, hash);
		if (plan.outcome === 'conflict') return undefined;
		if (plan.outcome === 'already' || plan.outcome === 'skip') content = current;
		else content = plan.op.kind === 'write' ? plan.op.text : null;
	}
	const own = proposal && proposed !== null ? userEditedLines(proposal, selected) : [];
	const userEdited = content === null ? [] : carry(proposed ?? '', content, own);
	return { path: file.path, content, ...(userEdited.length > 0 ? { userEdited } : {}) };
}

/**
 * The user's lines of `from` where they are in `to` (lines `to` replaced are gone), and every line
 * `to` has that `from` has not (the user's own edits of the file).
 */
function carry(from: string, to: string, own: readonly LineRange[]): LineRange[] {
	const hunks = splitHunks(from, to);
	const lines = new Set<number>();
	for (const range of own) {
		for (let line = range.line - 1; line < range.endLine; line++) {
			if (hunks.some((hunk) => hunk.oldStart <= line && line < hunk.oldStart + hunk.oldLines)) continue;
			const shift = hunks
				.filter((hunk) => hunk.oldStart + hunk.oldLines <= line)
				.reduce((sum, hunk) => sum + hunk.newLines - hunk.oldLines, 0);
			lines.add(line + shift + 1);
		}
	}
	for (const hunk of hunks) {
		for (let line = hunk.newStart; line < hunk.newStart + hunk.newLines; line++) lines.add(line + 1);
	}
	return toRanges([...lines].sort((a, b) => a - b));
}

function toRanges(lines: readonly number[]): LineRange[] {
	const ranges: { line: number; endLine: number }[] = [];
	for (const line of lines) {
		const last = ranges.at(-1);
		if (last && last.endLine === line - 1) last.endLine = line;
		else ranges.push({ line, endLine: line });
	}
	return ranges;
}
