import { applyHunks, type Hunk, hunksOverlap, sameHunk, splitHunks, splitLines } from './hunks.js';

export interface MergeLabels {
	/** Shown after `<<<<<<<` (the user's side). */
	readonly ours: string;
	/** Shown after `>>>>>>>` (the team's side). */
	readonly theirs: string;
}

export interface MergeResult {
	/** True when no hunks overlapped: `text` is the finished merge. */
	readonly clean: boolean;
	/** The merged text; with conflicts, each one is wrapped in git-style conflict markers. */
	readonly text: string;
	readonly conflicts: number;
}

const defaultLabels: MergeLabels = { ours: 'Current', theirs: 'MassGen' };

/**
 * Three-way merge of two texts made from the same base, hunk by hunk: hunks that do not
 * overlap are both applied, identical hunks once, and each group of overlapping hunks becomes a
 * conflict region with markers (as `git merge-file` writes them, without the base section).
 */
export function merge3(
	base: string,
	ours: string,
	theirs: string,
	labels: MergeLabels = defaultLabels,
): MergeResult {
	const mine = splitHunks(base, ours);
	const other = splitHunks(base, theirs).filter((hunk) => !mine.some((own) => sameHunk(own, hunk)));
	const groups = overlapGroups(mine, other);
	const clean: Hunk[] = [];
	const regions: { start: number; end: number; ours: Hunk[]; theirs: Hunk[] }[] = [];
	for (const group of groups) {
		if (group.ours.length + group.theirs.length === 1) {
			clean.push(...group.ours, ...group.theirs);
			continue;
		}
		const all = [...group.ours, ...group.theirs];
		const start = Math.min(...all.map((hunk) => hunk.oldStart));
		const end = Math.max(...all.map((hunk) => hunk.oldStart + hunk.oldLines));
		regions.push({ start, end, ...group });
	}
	if (regions.length === 0) return { clean: true, text: applyHunks(base, clean), conflicts: 0 };

	const lines = splitLines(base);
	const eol = base.includes('\r\n') ? '\r\n' : '\n';
	const conflictHunks = regions.map((region): Hunk => {
		const removed = lines.slice(region.start, region.end).join('');
		const side = (hunks: Hunk[]) =>
			terminated(
				applyHunks(
					removed,
					hunks.map((hunk) => shift(hunk, -region.start)),
				),
				eol,
			);
		const added =
			`<<<<<<< ${labels.ours}${eol}${side(region.ours)}` +
			`=======${eol}${side(region.theirs)}` +
			`>>>>>>> ${labels.theirs}${eol}`;
		return {
			oldStart: region.start,
			oldLines: region.end - region.start,
			newStart: 0,
			newLines: 0,
			removed,
			added,
		};
	});
	return { clean: false, text: applyHunks(base, [...clean, ...conflictHunks]), conflicts: regions.length };
}

/** Groups of hunks linked by overlaps between the two sides (hunks of one side never overlap). */
function overlapGroups(ours: readonly Hunk[], theirs: readonly Hunk[]): { ours: Hunk[]; theirs: Hunk[] }[] {
	const all = [
		...ours.map((hunk) => ({ hunk, mine: true })),
		...theirs.map((hunk) => ({ hunk, mine: false })),
	];
	const parent = all.map((_, i) => i);
	const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
	for (let i = 0; i < all.length; i++) {
		for (let j = i + 1; j < all.length; j++) {
			if (all[i]!.mine !== all[j]!.mine && hunksOverlap(all[i]!.hunk, all[j]!.hunk)) {
				parent[find(i)] = find(j);
			}
		}
	}
	const groups = new Map<number, { ours: Hunk[]; theirs: Hunk[] }>();
	all.forEach((entry, i) => {
		const root = find(i);
		const group = groups.get(root) ?? { ours: [], theirs: [] };
		(entry.mine ? group.ours : group.theirs).push(entry.hunk);
		groups.set(root, group);
	});
	return [...groups.values()];
}

function shift(hunk: Hunk, by: number): Hunk {
	return { ...hunk, oldStart: hunk.oldStart + by };
}

/** A conflict side ends with a line ending so the next marker starts its own line. */
function terminated(text: string, eol: string): string {
	return text === '' || text.endsWith('\n') ? text : text + eol;
}
