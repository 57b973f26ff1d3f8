import { z } from 'zod';
import { defineTool, success } from './defineTool.js';

/** Enough for any sane folder; a huge generated one should not flood the context. */
const maxEntries = 1000;

export const listDirectoryTool = defineTool(
	'list_directory',
	'List a folder\'s files and folders (these end with "/"), with your own edits.',
	z.object({
		path: z.string().optional().describe("Relative to the workspace root; default '.'."),
	}),
	async ({ path = '.' }, { overlay }) => {
		const dir = path.trim() === '' ? '.' : path;
		const entries = await overlay.list(dir);
		if (entries.length === 0) return success(`'${dir}' is empty`);
		const lines = entries
			.slice(0, maxEntries)
			.map((entry) => (entry.kind === 'directory' ? `${entry.name}/` : entry.name));
		if (entries.length > maxEntries) lines.push(`(truncated: ${entries.length - maxEntries} more entries)`);
		return success(lines.join('\n'));
	},
);
