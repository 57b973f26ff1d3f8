import { z } from 'zod';
import { defineTool, resolvePath, success, ToolError } from './defineTool.js';
import { looksBinary, missingReason } from './textFiles.js';

export const editFileTool = defineTool(
	'edit_file',
	'Replace old_text with new_text in a file. old_text must match character for character ' +
		'(whitespace included) and occur exactly once: include surrounding lines to make it unique.',
	z.object({
		path: z.string().describe('Relative to the workspace root.'),
		old_text: z.string(),
		new_text: z.string().describe('May be empty.'),
	}),
	async ({ path: given, old_text: oldText, new_text: newText }, { overlay }) => {
		if (oldText === '') throw new ToolError("'old_text' must not be empty");
		const path = await resolvePath(overlay, given, 'write');
		const text = await overlay.readText(path);
		if (text === null) throw new ToolError(await missingReason(overlay, path));
		if (looksBinary(text)) throw new ToolError(`'${path}' is a binary file (only text files can be edited)`);

		let [from, to] = [oldText, newText];
		// Models write \n; a Windows file may hold \r\n. Match in the file's own line endings.
		if (occurrences(text, from).length === 0 && text.includes('\r\n') && !from.includes('\r')) {
			[from, to] = [from.replace(/\n/g, '\r\n'), to.replace(/\r?\n/g, '\r\n')];
		}
		const found = occurrences(text, from);
		if (found.length === 0) throw new ToolError(`old_text not found in '${path}'`);
		if (found.length > 1) {
			throw new ToolError(`old_text matches ${found.length} times in '${path}'; include more context`);
		}
		if (from === to) throw new ToolError('old_text and new_text are identical; nothing to change');
		const at = found[0]!;
		await overlay.write(path, text.slice(0, at) + to + text.slice(at + from.length));
		const line = text.slice(0, at).split('\n').length;
		return success(`edited '${path}' at line ${line}`, { path, kind: 'modify' });
	},
);

/** Start offsets of every occurrence, overlapping ones included (they are just as ambiguous). */
function occurrences(text: string, needle: string): number[] {
	const found: number[] = [];
	for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) found.push(at);
	return found;
}
