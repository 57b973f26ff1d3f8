/**
 * Where a comment's lines went: a range of the proposal the reviewer commented on, mapped through
 * the revision's edits onto the new text (`RevisionRecord`'s `now`). Lines inside a replaced block
 * map to its replacement; a deleted block maps to the line after it.
 */
import type { LineRange } from '../../contract/revision.js';
import { splitHunks, type Hunk } from './hunks.js';

export function mapRange(from: string, to: string, range: LineRange): LineRange {
	return rangeMapper(from, to)(range);
}

/**
 * `mapRange` for many ranges of one pair of texts: the diff is made once (a diff of two large
 * texts costs up to a second; a hundred comments on one rewritten file took 44 s, one each).
 */
export function rangeMapper(from: string, to: string): (range: LineRange) => LineRange {
	const hunks = splitHunks(from, to);
	return (range) => {
		const start = mapLine(hunks, range.line - 1, 'start');
		const end = Math.max(start, mapLine(hunks, range.endLine - 1, 'end'));
		return { line: start + 1, endLine: end + 1 };
	};
}

/** A 0-based line of the old text as a line of the new one. */
function mapLine(hunks: readonly Hunk[], line: number, edge: 'start' | 'end'): number {
	let shift = 0;
	for (const hunk of hunks) {
		if (line < hunk.oldStart) break;
		if (line < hunk.oldStart + hunk.oldLines) {
			return edge === 'start' || hunk.newLines === 0 ? hunk.newStart : hunk.newStart + hunk.newLines - 1;
		}
		shift = hunk.newStart + hunk.newLines - (hunk.oldStart + hunk.oldLines);
	}
	return line + shift;
}
