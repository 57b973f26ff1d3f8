import { diffLines, structuredPatch } from 'diff';
import type { ChangeObject, StructuredPatch } from 'diff';

/**
 * Line diffs whose cost is bounded. Myers' algorithm costs O((N+M)·D): a 50,000-line file
 * rewritten as 5,000 new lines took 18 s, and a model can ask for that with one write_file,
 * freezing view_answer_changes, changes.patch and the editor's review. Past an edit distance
 * that keeps the work near 2·10⁷ steps (~0.1 s), the diff gives up on finding matching lines in
 * the middle: the common leading and trailing lines stay, everything between them is replaced.
 * Still exact (applying it gives `next`), only coarser. Deterministic, so the CLI's patch and the
 * editor's hunks agree.
 */
const maxWork = 20_000_000;

function maxEditLength(base: string, next: string): number {
	return Math.max(200, Math.floor(maxWork / (lineCount(base) + lineCount(next) + 1)));
}

/** `diffLines(base, next)`, or the coarse diff when that would cost too much. */
export function boundedDiffLines(base: string, next: string): ChangeObject<string>[] {
	const exact = diffLines(base, next, { maxEditLength: maxEditLength(base, next) });
	if (exact !== undefined) return exact;
	const { prefix, oldMiddle, newMiddle, suffix } = coarse(base, next);
	const part = (lines: string[], added: boolean, removed: boolean): ChangeObject<string>[] =>
		lines.length === 0 ? [] : [{ value: lines.join(''), count: lines.length, added, removed }];
	return [
		...part(prefix, false, false),
		...part(oldMiddle, false, true),
		...part(newMiddle, true, false),
		...part(suffix, false, false),
	];
}

/** jsdiff's `structuredPatch`, or one coarse hunk (with `context` lines around it) when too costly. */
export function boundedStructuredPatch(
	oldName: string,
	newName: string,
	before: string,
	after: string,
	context: number,
): StructuredPatch {
	const options = { context, maxEditLength: maxEditLength(before, after) };
	const exact = structuredPatch(oldName, newName, before, after, undefined, undefined, options);
	if (exact !== undefined) return exact;
	const { prefix, oldMiddle, newMiddle, suffix } = coarse(before, after);
	const leading = prefix.slice(Math.max(0, prefix.length - context));
	const trailing = suffix.slice(0, context);
	const raw = [
		...leading.map((line) => ` ${line}`),
		...oldMiddle.map((line) => `-${line}`),
		...newMiddle.map((line) => `+${line}`),
		...trailing.map((line) => ` ${line}`),
	];
	// As jsdiff writes lines: without their `\n`, and a marker after a last line that has none.
	const lines = raw.flatMap((line) =>
		line.endsWith('\n') ? [line.slice(0, -1)] : [line, '\\ No newline at end of file'],
	);
	const start = prefix.length - leading.length + 1;
	const hunk = {
		oldStart: start,
		oldLines: leading.length + oldMiddle.length + trailing.length,
		newStart: start,
		newLines: leading.length + newMiddle.length + trailing.length,
		lines,
	};
	return {
		oldFileName: oldName,
		newFileName: newName,
		oldHeader: undefined,
		newHeader: undefined,
		hunks: [hunk],
	};
}

/** The lines both texts start and end with, and the differing middles (lines keep their `\n`). */
function coarse(base: string, next: string) {
	const a = splitKeepingEnds(base);
	const b = splitKeepingEnds(next);
	let start = 0;
	while (start < a.length && start < b.length && a[start] === b[start]) start++;
	let end = 0;
	while (
		end < a.length - start &&
		end < b.length - start &&
		a[a.length - 1 - end] === b[b.length - 1 - end]
	) {
		end++;
	}
	return {
		prefix: a.slice(0, start),
		oldMiddle: a.slice(start, a.length - end),
		newMiddle: b.slice(start, b.length - end),
		suffix: a.slice(a.length - end),
	};
}

function splitKeepingEnds(text: string): string[] {
	return text === '' ? [] : text.split(/(?<=\n)/);
}

function lineCount(text: string): number {
	let count = 0;
	for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) count++;
	return count;
}
