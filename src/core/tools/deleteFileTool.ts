import { z } from 'zod';
import { defineTool, resolvePath, success } from './defineTool.js';

export const deleteFileTool = defineTool(
	'delete_file',
	'Delete a file (not a folder).',
	z.object({ path: z.string().describe('Relative to the workspace root.') }),
	async ({ path: given }, { overlay }) => {
		const path = await resolvePath(overlay, given, 'write');
		await overlay.delete(path);
		return success(`deleted '${path}'`, { path, kind: 'delete' });
	},
);
