import { hunksOverlap } from '../../contract/hunkRules.js';
import { boundedDiffLines } from '../util/boundedDiff.js';
import { hasErrorMark } from '../util/errorMark.js';

const mark = Symbol.for('massgen.HunkApplyError');

export { hunksOverlap } from '../../contract/hunkRules.js';

/**
 * One block of consecutive changed lines between a base text and a new text, as `diffLines`
 * finds it. Line numbers are 0-based and count lines as `diffLines` does (a line ends after
 * `\n`; `\r\n` stays inside the line). `removed` and `added` are exact text, line endings
 * included, so applying hunks never normalises anything.
 */
export interface Hunk {
	/** First base line replaced; for a pure insertion, the base line it goes before. */
	readonly oldStart: number;
	readonly oldLines: number;
	/** First line of the replacement in the new text. */
	readonly newStart: number;
	readonly newLines: number;
	readonly removed: string;
	readonly added: string;
}

/** The lines of a text, each with its line ending (the last one may have none). */
export function splitLines(text: string): string[] {
	return text === '' ? [] : text.split(/(?<=\n)/);
}

/** The change blocks that turn `base` into `next`, in order (none when they are equal). */
export function splitHunks(base: string, next: string): Hunk[] {
	const hunks: Hunk[] = [];
	let oldLine = 0;
	let newLine = 0;
	let open: {
		oldStart: number;
		newStart: number;
		oldLines: number;
		newLines: number;
		removed: string;
		added: string;
	} | null = null;
	for (const part of boundedDiffLines(base, next)) {
		const count = part.count;
		if (!part.added && !part.removed) {
			if (open) hunks.push(open);
			open = null;
			oldLine += count;
			newLine += count;
			continue;
		}
		open ??= { oldStart: oldLine, newStart: newLine, oldLines: 0, newLines: 0, removed: '', added: '' };
		if (part.removed) {
			open.removed += part.value;
			open.oldLines += count;
			oldLine += count;
		} else {
			open.added += part.value;
			open.newLines += count;
			newLine += count;
		}
	}
	if (open) hunks.push(open);
	return hunks;
}

/** Same base lines replaced by the same text (trailing whitespace and line endings ignored). */
export function sameHunk(a: Hunk, b: Hunk): boolean {
	return a.oldStart === b.oldStart && a.oldLines === b.oldLines && normalise(a.added) === normalise(b.added);
}

function normalise(text: string): string {
	return splitLines(text)
		.map((line) => line.trimEnd())
		.join('\n');
}

export class HunkApplyError extends Error {
	override readonly name = 'HunkApplyError';
	readonly [mark] = true;

	/** Survives duplicate module copies (the engine bundle), unlike `instanceof`. */
	static is(value: unknown): value is HunkApplyError {
		return hasErrorMark(value, mark);
	}
}

/**
 * Applies hunks (from one or several diffs of the same base) to that base. Throws
 * `HunkApplyError` when two hunks overlap or a hunk's removed text is not in the base.
 */
export function applyHunks(base: string, hunks: readonly Hunk[]): string {
	const lines = splitLines(base);
	const sorted = [...hunks].sort((a, b) => a.oldStart - b.oldStart || a.oldLines - b.oldLines);
	let out = '';
	let at = 0;
	for (const [i, hunk] of sorted.entries()) {
		const previous = sorted[i - 1];
		if (previous && hunksOverlap(previous, hunk)) {
			throw new HunkApplyError(
				`hunks at base lines ${previous.oldStart + 1} and ${hunk.oldStart + 1} overlap`,
			);
		}
		const end = hunk.oldStart + hunk.oldLines;
		if (end > lines.length || lines.slice(hunk.oldStart, end).join('') !== hunk.removed) {
			throw new HunkApplyError(`the hunk at base line ${hunk.oldStart + 1} does not match the base`);
		}
		out += lines.slice(at, hunk.oldStart).join('') + hunk.added;
		at = end;
	}
	return out + lines.slice(at).join('');
}

/** Unified-diff body lines of a hunk (`-`/`+` prefixed, line endings removed). */
export function hunkDiffLines(hunk: Hunk): string[] {
	const strip = (line: string) => line.replace(/\r?\n$/, '');
	return [
		...splitLines(hunk.removed).map((line) => `-${strip(line)}`),
		...splitLines(hunk.added).map((line) => `+${strip(line)}`),
	];
}
