/**
 * Where a hunk lies and how big it is, in the panel's words: the panel's hunk rows and the diff
 * editor's per-change lenses say the same thing about the same change. Pure: each side passes its
 * translator over the panel's table (`stringsTable.ts`).
 */
import type { WebviewStringKey } from './stringsTable.js';

/** The table's texts these words are made of. */
type PlaceKey = Extract<WebviewStringKey, 'atTheStart' | 'afterLine' | 'line2' | 'lines2'>;

export type Words = (key: PlaceKey, ...args: readonly (string | number)[]) => string;

export interface HunkPlace {
	/** 1-based first base line it replaces (an insertion: the line it goes before). */
	readonly oldStart: number;
	readonly oldLines: number;
	readonly newLines: number;
}

/** "lines 12–14", "line 12", "after line 11", "at the start" (base side). */
export function baseLines(hunk: HunkPlace, t: Words): string {
	if (hunk.oldLines === 0) return hunk.oldStart <= 1 ? t('atTheStart') : t('afterLine', hunk.oldStart - 1);
	if (hunk.oldLines === 1) return t('line2', hunk.oldStart);
	return t('lines2', hunk.oldStart, hunk.oldStart + hunk.oldLines - 1);
}

/** "+1 −3": the lines it adds and removes. */
export function hunkCounts(hunk: HunkPlace): string {
	return [hunk.newLines > 0 ? `+${hunk.newLines}` : '', hunk.oldLines > 0 ? `−${hunk.oldLines}` : '']
		.filter(Boolean)
		.join(' ');
}
