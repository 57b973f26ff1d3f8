import { defaultMaxReadBytes } from '../workspace/createWorkspace.js';
import type { Tool } from './defineTool.js';
import { deleteFileTool } from './deleteFileTool.js';
import { editFileTool } from './editFileTool.js';
import { listDirectoryTool } from './listDirectoryTool.js';
import { readFileTool } from './readFileTool.js';
import { searchFilesTool } from './searchFilesTool.js';
import type { Toolbox, ToolboxOptions } from './types.js';
import type { ToolOutcome } from '../providers/spec/toolOutcome.js';
import { viewAnswerChangesTool } from './viewAnswerChangesTool.js';
import { writeFileTool } from './writeFileTool.js';

/**
 * The workspace tools (docs/tools-and-sandbox.md) over one agent's overlay: reading tools always, write tools
 * only when `writable`, and `view_answer_changes` over `answerIds` when given, else only when there
 * are answers to inspect.
 */
export function createToolbox(options: ToolboxOptions): Toolbox {
	const tools: Tool[] = [readFileTool, listDirectoryTool, searchFilesTool];
	if (options.writable) tools.push(writeFileTool, editFileTool, deleteFileTool);
	const answers = options.answers ?? new Map();
	const ids = options.answerIds ?? [...answers.keys()];
	if (ids.length > 0) tools.push(viewAnswerChangesTool(ids, answers));
	const byName = new Map(tools.map((tool) => [tool.definition.name, tool]));
	const maxReadBytes = options.overlay.workspace.maxReadBytes ?? defaultMaxReadBytes;
	const now = options.now ?? (() => performance.now());

	return {
		definitions: tools.map((tool) => tool.definition),
		has: (name) => byName.has(name),
		async execute(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<ToolOutcome> {
			const tool = byName.get(name);
			if (tool === undefined) {
				return {
					text: `unknown tool '${name}'; available tools: ${[...byName.keys()].join(', ')}`,
					isError: true,
				};
			}
			return tool.execute(args, { overlay: options.overlay, maxReadBytes, signal, now });
		},
	};
}
