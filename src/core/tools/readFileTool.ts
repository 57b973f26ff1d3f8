import { z } from 'zod';
import { defineTool, success, ToolError } from './defineTool.js';
import { looksBinary, missingReason, truncateUtf8 } from './textFiles.js';

export const readFileTool = defineTool(
	'read_file',
	'Read a text file from the workspace, including any changes you have already made to it. ' +
		'Paths are relative to the workspace root. Very large files are truncated.',
	z.object({ path: z.string().describe("File path relative to the workspace root, e.g. 'src/index.ts'.") }),
	async ({ path }, { overlay, maxReadBytes }) => {
		const text = await overlay.readText(path);
		if (text === null) throw new ToolError(await missingReason(overlay, path));
		if (looksBinary(text)) throw new ToolError(`'${path}' is a binary file (only text files can be read)`);
		if (text === '') return success(`('${path}' is empty)`);
		const bytes = Buffer.byteLength(text, 'utf8');
		if (bytes <= maxReadBytes) return success(text);
		return success(
			`${truncateUtf8(text, maxReadBytes)}\n\n[truncated: '${path}' has ${bytes} bytes; only the first ` +
				`${maxReadBytes} are shown. Use search_files to find the lines you need.]`,
		);
	},
);
