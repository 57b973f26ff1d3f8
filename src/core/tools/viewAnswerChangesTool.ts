import { z } from 'zod';
import { formatPatch } from '../workspace/patch.js';
import type { OverlaySnapshot } from '../workspace/types.js';
import { defineTool, success, ToolError, type Tool } from './defineTool.js';
import { truncateUtf8 } from './textFiles.js';

/**
 * `view_answer_changes` over the anonymous ids `ids` (`agentN`); `answers` holds those that have an
 * answer the agent may inspect. The diff is against the original workspace, not the caller's overlay.
 */
export function viewAnswerChangesTool(
	ids: readonly string[],
	answers: ReadonlyMap<string, OverlaySnapshot>,
): Tool {
	return defineTool(
		'view_answer_changes',
		'Show the file changes an answer proposes, as a unified diff against the original workspace.',
		z.object({ agent_id: z.string().meta({ enum: ids }) }),
		async ({ agent_id: id }, { overlay, maxReadBytes }) => {
			const snapshot = answers.get(id);
			if (snapshot === undefined) {
				const answered = [...answers.keys()];
				if (ids.includes(id)) {
					throw new ToolError(
						`${id} has no answer yet${answered.length > 0 ? `; answers: ${answered.join(', ')}` : ''}`,
					);
				}
				throw new ToolError(`unknown agent_id '${id}'; valid ids: ${ids.join(', ')}`);
			}
			const changes = await overlay.workspace.createOverlay(snapshot).changes();
			if (changes.length === 0) return success(`no file changes in ${id}'s answer`);
			const patch = formatPatch(changes);
			const count = (kind: string) => changes.filter((change) => change.kind === kind).length;
			const summary =
				`${id}'s answer changes ${changes.length} file(s): ${count('add')} added, ` +
				`${count('modify')} modified, ${count('delete')} deleted.`;
			const bytes = Buffer.byteLength(patch, 'utf8');
			if (bytes <= maxReadBytes) return success(`${summary}\n\n${patch}`);
			return success(
				`${summary}\n\n${truncateUtf8(patch, maxReadBytes)}\n[truncated: the diff has ${bytes} bytes; ` +
					`only the first ${maxReadBytes} are shown. Use read_file on the files you need.]`,
			);
		},
	);
}
