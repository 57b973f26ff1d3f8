/**
 * The `path:line` citations of an answer (`src/app.ts:12`, `src/app.ts:12-20`, `src/app.ts#L12`),
 * pure so it is unit-tested. Only relative paths that stay inside the folder are kept: the answer
 * is a model's text, and a link is something the user may click.
 */
import { normaliseRelative } from '../../core/workspace/pathPolicy.js';

export interface CitedLines {
	/** Workspace-relative, `/`-separated, normalised. */
	readonly path: string;
	/** 1-based, inclusive. */
	readonly start: number;
	readonly end: number;
}

/** At most this many citations become references (an answer listing hundreds is not helped by them). */
export const maxCitations = 20;

// A path of at least one segment with an extension, then `:12`, `:12-20`, `#L12` or `#L12-L20`;
// not preceded by a character that would make it part of a longer token (a URL, another path).
const citation =
	/(?<![\w./:\\-])((?:[\w.@+-]+\/)*[\w.@+-]*[\w@+-]\.[A-Za-z0-9]+)(?::(\d{1,7})(?:-(\d{1,7}))?|#L(\d{1,7})(?:-L?(\d{1,7}))?)/g;

/** Each cited file and line range once, in order of first mention, up to `maxCitations`. */
export function citedLines(answer: string): CitedLines[] {
	const seen = new Set<string>();
	const out: CitedLines[] = [];
	for (const match of answer.matchAll(citation)) {
		const path = normaliseRelative(match[1]!);
		if (path === null || path === '.') continue;
		const start = Number(match[2] ?? match[4]);
		const end = Number(match[3] ?? match[5] ?? start);
		if (start < 1 || end < start) continue;
		const key = `${path}:${start}-${end}`;
		if (seen.has(key)) continue;
		seen.add(key);
		out.push({ path, start, end });
		if (out.length === maxCitations) break;
	}
	return out;
}
