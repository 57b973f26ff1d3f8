import { z } from 'zod';
import { defineTool, resolvePath, success } from './defineTool.js';
import { lineCount } from './textFiles.js';

export const writeFileTool = defineTool(
	'write_file',
	'Create a file or replace its entire content. Missing folders are created. ' +
		'Prefer edit_file for small changes to an existing file.',
	z.object({
		path: z.string().describe('File path relative to the workspace root.'),
		content: z.string().describe('The complete new content of the file.'),
	}),
	async ({ path: given, content }, { overlay }) => {
		const path = await resolvePath(overlay, given, 'write');
		const existed = (await overlay.readText(path)) !== null;
		await overlay.write(path, content);
		const verb = existed ? 'wrote' : 'created';
		const lines = lineCount(content);
		const summary = `${verb} '${path}' (${lines} ${lines === 1 ? 'line' : 'lines'})`;
		return success(summary, { path, kind: existed ? 'modify' : 'add' });
	},
);
