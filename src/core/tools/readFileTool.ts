import { z } from 'zod';
import { defineTool, success, ToolError } from './defineTool.js';
import { looksBinary, missingReason, truncateUtf8 } from './textFiles.js';

export const readFileTool = defineTool(
	'read_file',
	'Read a text file, with your edits. Returns at most 256 KB of whole lines; for a longer file the ' +
		'result says which lines it shows: read on with offset and limit, or use search_files.',
	z.object({
		path: z.string().describe("Relative to the workspace root, e.g. 'src/index.ts'."),
		offset: z.number().int().min(1).optional().describe('First line (from 1).'),
		limit: z.number().int().min(1).optional().describe('Number of lines.'),
	}),
	async ({ path, offset, limit }, { overlay, maxReadBytes }) => {
		const text = await overlay.readText(path);
		if (text === null) throw new ToolError(await missingReason(overlay, path));
		if (looksBinary(text)) throw new ToolError(`'${path}' is a binary file (only text files can be read)`);
		if (text === '') return success(`('${path}' is empty)`);
		if (offset === undefined && limit === undefined && Buffer.byteLength(text, 'utf8') <= maxReadBytes) {
			return success(text);
		}
		return success(readLines(path, text, offset ?? 1, limit, maxReadBytes));
	},
);

/** Lines `first…` (1-based) up to `limit` lines and `maxBytes`, with a note saying what is shown. */
function readLines(
	path: string,
	text: string,
	first: number,
	limit: number | undefined,
	maxBytes: number,
): string {
	const lines = text.split('\n');
	// A final newline ends the last line rather than starting an empty one.
	if (lines.at(-1) === '') lines.pop();
	const total = lines.length;
	if (first > total) throw new ToolError(`'${path}' has ${total} line(s); offset ${first} is past the end`);
	const end = Math.min(total, limit === undefined ? total : first - 1 + limit);
	const shown: string[] = [];
	let bytes = 0;
	for (let index = first - 1; index < end; index++) {
		const line = `${lines[index]}${index < total - 1 || text.endsWith('\n') ? '\n' : ''}`;
		const size = Buffer.byteLength(line, 'utf8');
		if (bytes + size > maxBytes) {
			// One line longer than a whole read (minified code): show its start rather than nothing.
			if (shown.length === 0) {
				return (
					`${truncateUtf8(line, maxBytes)}\n\n[line ${first} of ${total} in '${path}' has ${size} bytes; ` +
					`only the first ${maxBytes} are shown. Use search_files to find what you need in it.]`
				);
			}
			break;
		}
		shown.push(line);
		bytes += size;
	}
	const last = first - 1 + shown.length;
	const more = last < total ? ` Read on with offset: ${last + 1}.` : '';
	return `${shown.join('')}\n[lines ${first}-${last} of ${total} in '${path}'.${more}]`;
}
