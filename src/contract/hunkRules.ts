/**
 * The hunk selection rules the host applies (core/changes) and the panel previews (webview):
 * one copy, so a checkbox in the panel never disagrees with what Accept writes. Pure.
 */

/** Where a hunk lies in its base (0-based first line, number of lines replaced). */
export interface HunkRange {
	/** First base line replaced; for a pure insertion, the base line it goes before. */
	readonly oldStart: number;
	readonly oldLines: number;
}

/**
 * Whether two hunks made against the same base touch the same base lines, so both cannot be
 * applied. An insertion right before or after another hunk's lines does not overlap it; two
 * insertions at the same place do (their order would be a guess).
 */
export function hunksOverlap(a: HunkRange, b: HunkRange): boolean {
	const aEnd = a.oldStart + a.oldLines;
	const bEnd = b.oldStart + b.oldLines;
	if (a.oldLines === 0 && b.oldLines === 0) return a.oldStart === b.oldStart;
	if (a.oldLines === 0) return b.oldStart < a.oldStart && a.oldStart < bEnd;
	if (b.oldLines === 0) return a.oldStart < b.oldStart && b.oldStart < aEnd;
	return a.oldStart < bEnd && b.oldStart < aEnd;
}

/**
 * A file's selection with `id` switched on or off; `hunks` are all of the file's hunks (the
 * winner's and the alternatives). Switching a hunk on switches off every selected hunk it
 * overlaps (taking a runner-up's hunk instead of the winner's, or back).
 */
export function toggleHunk(
	hunks: readonly (HunkRange & { readonly id: string })[],
	selected: ReadonlySet<string>,
	id: string,
	on: boolean,
): Set<string> {
	const next = new Set(selected);
	if (!on) {
		next.delete(id);
		return next;
	}
	const hunk = hunks.find((candidate) => candidate.id === id);
	if (!hunk) return next;
	for (const other of hunks) {
		if (other.id !== id && next.has(other.id) && hunksOverlap(other, hunk)) next.delete(other.id);
	}
	next.add(id);
	return next;
}

/** The default selection of a file: every winner hunk, no alternative. */
export function isDefaultSelection(
	winnerHunks: readonly { readonly id: string }[],
	ids: ReadonlySet<string>,
): boolean {
	return ids.size === winnerHunks.length && winnerHunks.every((hunk) => ids.has(hunk.id));
}
