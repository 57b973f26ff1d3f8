import { z } from 'zod';
import { defineTool, resolvePath, success } from './defineTool.js';
import { lineCount } from './textFiles.js';

export const writeFileTool = defineTool(
	'write_file',
	'Create a file or replace all of it (folders are made as needed). For small changes use edit_file.',
	z.object({
		path: z.string().describe('Relative to the workspace root.'),
		content: z.string().describe('The whole new content.'),
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
