/**
 * Whether another agent made the winner's change, for the panel's "K of N agents" mark. Two hunks
 * made against the same base agree when they replace the same base lines and:
 *
 * - **same**: their new text is equal once whitespace is normalised (each line trimmed, runs of
 *   spaces and tabs collapsed, blank lines dropped, line endings ignored);
 * - **similar**: their new text has the same words, numbers, strings and symbols in the same order
 *   except for a few names (at most one token in four, and only identifiers: `throw new Error(…)`
 *   and `throw new RangeError(…)`). A different number, string or operator is a different change.
 *
 * Anything else (other lines, or a different edit of the same lines) is not agreement: that change
 * is a runner-up's alternative. Pure.
 */
import type { Hunk } from './hunks.js';

export type Agreement = 'same' | 'similar' | null;

/** How `other` relates to `own` (both diffed against the same base). */
export function hunkAgreement(
	own: Pick<Hunk, 'oldStart' | 'oldLines' | 'added'>,
	other: Pick<Hunk, 'oldStart' | 'oldLines' | 'added'>,
): Agreement {
	if (own.oldStart !== other.oldStart || own.oldLines !== other.oldLines) return null;
	if (normaliseWhitespace(own.added) === normaliseWhitespace(other.added)) return 'same';
	return similarTokens(tokens(own.added), tokens(other.added)) ? 'similar' : null;
}

/** Each line trimmed with inner runs of spaces and tabs collapsed; blank lines dropped. */
export function normaliseWhitespace(text: string): string {
	return text
		.split(/\r?\n/)
		.map((line) => line.trim().replace(/[ \t]+/g, ' '))
		.filter((line) => line !== '')
		.join('\n');
}

/** Identifiers, numbers, quoted strings, and every other non-space character alone. */
const tokenPattern = /[A-Za-z_$][\w$]*|\d[\w.]*|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`[^`]*`|\S/g;
const identifier = /^[A-Za-z_$][\w$]*$/;

function tokens(text: string): string[] {
	return text.match(tokenPattern) ?? [];
}

/** Same length, and the positions that differ are identifiers on both sides, at most one in four. */
function similarTokens(a: readonly string[], b: readonly string[]): boolean {
	if (a.length !== b.length || a.length === 0) return false;
	let differing = 0;
	for (let i = 0; i < a.length; i++) {
		if (a[i] === b[i]) continue;
		if (!identifier.test(a[i]!) || !identifier.test(b[i]!)) return false;
		differing += 1;
	}
	return differing <= Math.floor(a.length / 4);
}
