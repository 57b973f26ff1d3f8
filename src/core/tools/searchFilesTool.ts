import { z } from 'zod';
import { FileTooLargeError } from '../workspace/runSnapshot.js';
import { defineTool, resolvePath, success, ToolError } from './defineTool.js';
import { GitignoreFilter } from './gitignoreFilter.js';
import { compileLinear } from './linearRegex.js';
import { searchDisk } from './searchDisk.js';
import { peekText } from './searchSources.js';
import { looksBinary, specialFileReason } from './textFiles.js';
import { TimeSlice } from './timeSlice.js';
import { walkFiles } from './workspaceWalk.js';

const maxMatches = 200;
/** Longer lines (minified code) are clipped in results. */
const maxLineChars = 300;
/** Larger files are generated or data; scanning them costs more than it tells. */
const maxFileBytes = 1024 * 1024;
/**
 * RE2 steps one line may cost (program size × characters matched): a complex pattern on a minified
 * line holds the event loop for tens of ms (a few hundred on a cold, thrashing DFA), never seconds.
 * Simple patterns (program size up to ~100) match 10,000+ characters of a line.
 */
const maxLineWork = 1_000_000;
/** A search that takes longer returns what it found so far. */
const maxSearchMs = 30_000;

export const searchFilesTool = defineTool(
	'search_files',
	'Search text files line by line with an RE2 regex (case-sensitive, (?i) to ignore case; no lookaround ' +
		'or backreferences). Skips .gitignored, binary and over-1-MB files, .git/, .massgen/ and node_modules/. ' +
		`Returns up to ${maxMatches} matches as "path:line: text".`,
	z.object({
		pattern: z.string().describe("E.g. 'function\\s+main'."),
		path: z.string().optional().describe('File or folder to search; default: the whole workspace.'),
	}),
	async ({ pattern, path: given = '.' }, { overlay, signal, now }) => {
		const regex = compileLinear(pattern);
		const start = await resolvePath(overlay, given.trim() === '' ? '.' : given, 'read');
		const filter = new GitignoreFilter(overlay);
		const slice = new TimeSlice(signal);
		const deadline = now() + maxSearchMs;
		const matchChars = Math.max(500, Math.floor(maxLineWork / regex.programSize));
		const edits = overlay.snapshot().edits;
		const matches: string[] = [];
		/** Files whose lines the result shows. */
		const shown = new Set<string>();
		const notes: string[] = [];
		let truncated = false;
		let clippedLines = 0;
		let largeFiles = 0;
		let unreadableFiles = 0;

		/** Returns false to stop the search. */
		const add = (path: string, line: number, text: string): boolean => {
			if (matches.length === maxMatches) return !(truncated = true);
			matches.push(`${path}:${line}: ${clip(text)}`);
			shown.add(path);
			return true;
		};

		/** Searches a file as the overlay shows it, in memory. Returns false to stop the search. */
		const searchFile = async (path: string): Promise<boolean> => {
			const text = await peekText(overlay, edits, path).catch((error: unknown) => {
				if (isTooLarge(error)) unreadableFiles++;
				return null;
			});
			if (text !== null && text.length > maxFileBytes) largeFiles++;
			if (text === null || text.length > maxFileBytes || looksBinary(text)) return true;
			const lines = text.split('\n');
			for (let index = 0; index < lines.length; index++) {
				await slice.check();
				if (now() > deadline) {
					notes.push('stopped at the time limit');
					return false;
				}
				let line = lines[index]!.replace(/\r$/, '');
				if (line.length > matchChars) {
					clippedLines++;
					line = line.slice(0, matchChars);
				}
				if (regex.test(line) && !add(path, index + 1, line)) return false;
			}
			return true;
		};

		// A file too large to read at all is the answer itself when the agent names it.
		const startText = await overlay.readText(start).catch((error: unknown) => {
			if (isTooLarge(error)) throw error;
			return null;
		});
		if (startText !== null) await searchFile(start);
		else {
			// rg given a FIFO by name would block reading it (its walk skips them).
			const special = await specialFileReason(overlay, start);
			if (special !== null) throw new ToolError(special);
			// A folder the agent names explicitly is searched even if it is ignored (e.g. node_modules/x).
			const filtered = start === '.' || !(await filter.ignoresPath(start, true));
			const ripgrep = overlay.workspace.ripgrep;
			// rg reads the disk's .gitignore files: an agent that edited one sees its own rules in the walker.
			const end =
				ripgrep === undefined || [...edits.keys()].some(isGitignore)
					? 'unsupported'
					: await searchDisk({
							binary: ripgrep,
							overlay,
							start,
							pattern: regex.source,
							filter: filtered ? filter : undefined,
							signal,
							deadline,
							now,
							searchFile,
							add,
						});
			if (end === 'late') notes.push('stopped at the time limit');
			if (end === 'unsupported') {
				const walk = await walkFiles(
					overlay,
					start,
					{ filter: filtered ? filter : undefined, slice, deadline, now },
					searchFile,
				);
				notes.push(...walk.cuts);
			}
		}
		if (largeFiles > 0) {
			notes.push(`skipped ${largeFiles} file(s) over 1 MB (read them in parts: read_file offset/limit)`);
		}
		if (unreadableFiles > 0) notes.push(`skipped ${unreadableFiles} file(s) too large to read at all`);
		if (clippedLines > 0) {
			notes.push(`${clippedLines} long line(s) were searched only in their first ${matchChars} characters`);
		}

		// Lines shown are text the team saw: their files get their base now (`RunSnapshot`), so the
		// user's later edit of one is merged against this version, not taken for the base. Only
		// matched files: the search reads many more, and holding each would grow with the tree.
		await Promise.all([...shown].map((path) => overlay.workspace.runSnapshot.entry(path).catch(() => null)));
		const where = start === '.' ? 'the workspace' : `'${start}'`;
		const lines = matches.length === 0 ? [`no matches for /${pattern}/ in ${where}`] : matches;
		if (truncated) lines.push(`(truncated: more than ${maxMatches} matches; narrow the pattern or the path)`);
		if (notes.length > 0) lines.push(`(search cut: ${notes.join('; ')}; narrow the search with 'path')`);
		return success(lines.join('\n'));
	},
);

/** The overlay refuses files over its size cap. */
function isTooLarge(error: unknown): boolean {
	return error instanceof FileTooLargeError;
}

function clip(line: string): string {
	return line.length > maxLineChars ? `${line.slice(0, maxLineChars)}…` : line;
}

function isGitignore(path: string): boolean {
	return path === '.gitignore' || path.endsWith('/.gitignore');
}
