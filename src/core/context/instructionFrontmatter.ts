/**
 * The front matter of a `.github/instructions/*.instructions.md` file (VS Code Copilot's format):
 * `applyTo` holds comma-separated globs matched against workspace-relative paths. Only that key is
 * read; the body the agents get is the text after the front matter.
 */
import { compileGlob } from '../util/linearGlob.js';

export interface InstructionFrontmatter {
	/** The globs; empty when the file names none (then it applies to nothing). */
	readonly applyTo: readonly string[];
	/** The text after the front matter. */
	readonly body: string;
}

const fence = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

export function parseFrontmatter(text: string): InstructionFrontmatter {
	const match = fence.exec(text.replace(/^\uFEFF/, ''));
	if (!match) return { applyTo: [], body: text };
	const line = match[1]!.split(/\r?\n/).find((row) => /^applyTo\s*:/.test(row));
	const value = line?.replace(/^applyTo\s*:\s*/, '').trim() ?? '';
	const unquoted = /^(['"])(.*)\1$/.exec(value)?.[2] ?? value;
	const applyTo = splitGlobs(unquoted)
		.map((glob) => glob.trim())
		.filter((glob) => glob !== '')
		// A glob is a repository's text: bounded in count and length (the matcher is linear anyway).
		.slice(0, 32)
		.filter((glob) => glob.length <= 200);
	return { applyTo, body: text.slice(match[0].length + (text.startsWith('\uFEFF') ? 1 : 0)) };
}

/** `**` (or `**\/*`) applies to every request; any other glob to the files in play it matches. */
export function applies(applyTo: readonly string[], filesInPlay: readonly string[]): boolean {
	if (applyTo.some((glob) => glob === '**' || glob === '**/*')) return true;
	return applyTo.some((glob) => {
		let matches: (path: string) => boolean;
		try {
			matches = compileGlob(glob.replace(/^\.\//, ''), { crossSlash: false });
		} catch {
			return false; // a class the matcher cannot take (`[z-a]`): applies to nothing
		}
		return filesInPlay.some((path) => matches(path));
	});
}

/** `a, b/{c,d}` → `a`, `b/{c,d}`: commas outside braces separate globs. */
function splitGlobs(value: string): string[] {
	const globs: string[] = [];
	let depth = 0;
	let from = 0;
	for (let i = 0; i < value.length; i++) {
		if (value[i] === '{') depth++;
		else if (value[i] === '}') depth = Math.max(0, depth - 1);
		else if (value[i] === ',' && depth === 0) {
			globs.push(value.slice(from, i));
			from = i + 1;
		}
	}
	globs.push(value.slice(from));
	return globs;
}
