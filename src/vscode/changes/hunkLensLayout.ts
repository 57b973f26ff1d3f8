// No `vscode` import: the layout is unit-tested (test/unit/vscode/hunkLensLayout.test.ts).
import type { ReviewFile } from '../../core/changes/changeSet.js';

/** Where one hunk's Accept or Reject goes in the proposed document (base + the selected hunks). */
export interface HunkLensSpot {
	readonly id: string;
	/** 0-based line of the proposed text: the hunk's first line, or where it would go when left out. */
	readonly line: number;
	readonly selected: boolean;
	/** 1-based base lines it replaces (for an insertion: the line it goes before) and its size. */
	readonly oldStart: number;
	readonly oldLines: number;
	readonly newLines: number;
}

/**
 * One spot per winner hunk and per selected runner-up hunk, in line order. A selected hunk is
 * shown in the diff (Reject takes it out); a left-out one is not, so its spot is where it would
 * go (Accept puts it back). Runner-up hunks left out are offered in the panel, not here.
 */
export function hunkLensSpots(file: ReviewFile, selected: ReadonlySet<string>): HunkLensSpot[] {
	const shown = [...file.hunks, ...file.alternatives.filter((hunk) => selected.has(hunk.id))];
	const taken = shown.filter((hunk) => selected.has(hunk.id));
	const spots = shown.map((hunk) => {
		// Every selected hunk before this one shifts it by the lines it adds minus those it removes.
		const shift = taken
			.filter((other) => other !== hunk && other.oldStart + other.oldLines <= hunk.oldStart)
			.reduce((sum, other) => sum + other.newLines - other.oldLines, 0);
		return {
			id: hunk.id,
			line: Math.max(0, hunk.oldStart + shift),
			selected: selected.has(hunk.id),
			oldStart: hunk.oldStart + 1,
			oldLines: hunk.oldLines,
			newLines: hunk.newLines,
		};
	});
	return spots.sort((a, b) => a.line - b.line || a.oldStart - b.oldStart);
}
