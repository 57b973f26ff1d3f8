import { boundedDiffLines } from '../../core/util/boundedDiff.js';
import type { LineRange } from '../../contract/revision.js';

export type { LineRange };

/** How many lines `diffLines` counts in a text (a last line without a newline counts). */
export function lineCount(text: string): number {
	if (text === '') return 0;
	return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/**
 * Where lines of `before` are in `after` (a comment thread's anchor when its document's text
 * changes: the proposed side re-renders when a hunk is ticked or unticked, a revision rewrote the
 * file). A kept line stays on its line; lines inside a replaced block map to the whole replacement;
 * removed lines collapse onto the line now in their place. Undefined when `after` is empty.
 */
export function mapRange(before: string, after: string, range: LineRange): LineRange | undefined {
	return rangeMapper(before, after)(range);
}

export type RangeMapper = (range: LineRange) => LineRange | undefined;

/**
 * `mapRange` for every range of one pair of texts, with one diff, and that diff bounded
 * (`boundedDiffLines`): a model's rewrite of a large file cost seconds per diff unbounded, and
 * every thread on the file made its own on each re-render of the proposed side.
 */
export function rangeMapper(before: string, after: string): RangeMapper {
	const total = lineCount(after);
	if (total === 0) return () => undefined;
	// first/last new line (0-based) for each old line.
	const first: number[] = [];
	const last: number[] = [];
	const parts = boundedDiffLines(before, after);
	let newLine = 0;
	for (let i = 0; i < parts.length; i++) {
		const part = parts[i]!;
		const count = part.count ?? lineCount(part.value);
		if (part.added) {
			newLine += count;
			continue;
		}
		if (!part.removed) {
			for (let k = 0; k < count; k++) {
				first.push(newLine + k);
				last.push(newLine + k);
			}
			newLine += count;
			continue;
		}
		const next = parts[i + 1];
		const replacement = next?.added ? (next.count ?? lineCount(next.value)) : 0;
		const from = Math.min(newLine, total - 1);
		const to = replacement > 0 ? newLine + replacement - 1 : from;
		for (let k = 0; k < count; k++) {
			first.push(from);
			last.push(to);
		}
	}
	const at = (index: number, side: number[]) =>
		side[Math.min(Math.max(index, 0), side.length - 1)] ?? Math.min(newLine, total - 1);
	return (range) => {
		const start = at(range.line - 1, first);
		const end = Math.max(start, at(range.endLine - 1, last));
		return { line: start + 1, endLine: Math.min(end, total - 1) + 1 };
	};
}

/** One `rangeMapper` per pair of texts for a pass over many threads (they share their file's texts). */
export function mapperCache(): (before: string, after: string) => RangeMapper {
	const made: { before: string; after: string; map: RangeMapper }[] = [];
	return (before, after) => {
		const hit = made.find((entry) => entry.before === before && entry.after === after);
		if (hit) return hit.map;
		const map = rangeMapper(before, after);
		made.push({ before, after, map });
		return map;
	};
}
