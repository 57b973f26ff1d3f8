import { z } from 'zod';
import { defineTool, resolvePath, success, ToolError } from './defineTool.js';
import { GitignoreFilter } from './gitignoreFilter.js';
import { looksBinary } from './textFiles.js';

const maxMatches = 200;
/** Longer lines (minified code) are clipped in results. */
const maxLineChars = 300;
/** Larger files are generated or data; scanning them costs more than it tells. */
const maxFileBytes = 1024 * 1024;

export const searchFilesTool = defineTool(
	'search_files',
	'Search the text files of the workspace line by line with a JavaScript regular expression ' +
		'(case-sensitive). Skips files ignored by .gitignore, binary files, .git/, .massgen/ and ' +
		`node_modules/. Returns up to ${maxMatches} matches as "path:line: text".`,
	z.object({
		pattern: z.string().describe("JavaScript regular expression, e.g. 'function\\s+main' or 'TODO'."),
		path: z
			.string()
			.optional()
			.describe("File or directory to search, relative to the workspace root; omit for the whole workspace."),
	}),
	async ({ pattern, path: given = '.' }, { overlay, signal }) => {
		const regex = compile(pattern);
		const start = await resolvePath(overlay, given.trim() === '' ? '.' : given, 'read');
		const filter = new GitignoreFilter(overlay);
		const matches: string[] = [];
		let truncated = false;

		const searchFile = async (path: string): Promise<void> => {
			const text = await overlay.readText(path).catch(() => null);
			if (text === null || text.length > maxFileBytes || looksBinary(text)) return;
			const lines = text.split('\n');
			for (let index = 0; index < lines.length && !truncated; index++) {
				const line = lines[index]!.replace(/\r$/, '');
				if (!regex.test(line)) continue;
				if (matches.length === maxMatches) truncated = true;
				else matches.push(`${path}:${index + 1}: ${clip(line)}`);
			}
		};
		const walk = async (dir: string, filtered: boolean): Promise<void> => {
			for (const entry of await overlay.list(dir)) {
				if (truncated) return;
				if (signal.aborted) throw new ToolError('cancelled');
				const child = dir === '.' ? entry.name : `${dir}/${entry.name}`;
				const isDirectory = entry.kind === 'directory';
				if (filtered && (await filter.ignores(child, isDirectory))) continue;
				if (isDirectory) await walk(child, filtered);
				else await searchFile(child);
			}
		};

		if ((await overlay.readText(start)) !== null) await searchFile(start);
		// A folder the agent names explicitly is searched even if it is ignored (e.g. node_modules/x).
		else await walk(start, start === '.' || !(await ignoredPath(filter, start)));

		const where = start === '.' ? 'the workspace' : `'${start}'`;
		if (matches.length === 0) return success(`no matches for /${pattern}/ in ${where}`);
		if (truncated) {
			matches.push(`(truncated: more than ${maxMatches} matches; narrow the pattern or the path)`);
		}
		return success(matches.join('\n'));
	},
);

function compile(pattern: string): RegExp {
	try {
		return new RegExp(pattern);
	} catch (error) {
		throw new ToolError(`invalid regular expression /${pattern}/: ${(error as Error).message}`);
	}
}

function clip(line: string): string {
	return line.length > maxLineChars ? `${line.slice(0, maxLineChars)}…` : line;
}

/** Whether `dir` or any of its ancestors is ignored. */
async function ignoredPath(filter: GitignoreFilter, dir: string): Promise<boolean> {
	const segments = dir.split('/');
	for (let depth = 1; depth <= segments.length; depth++) {
		if (await filter.ignores(segments.slice(0, depth).join('/'), true)) return true;
	}
	return false;
}
