/**
 * Our conversation (ChatMessage[]) as text for the Claude Code CLI, which keeps its own history:
 * a new conversation gets everything rendered as its first prompt; a continued one only what the
 * runtime added since its last call (UPDATE, enforcement and limit messages).
 */
import type { ChatMessage } from '../spec/model.js';

/** All of a conversation the CLI has not seen, as one prompt. */
export function renderConversation(messages: readonly ChatMessage[]): string {
	return messages
		.map((message) => {
			if (message.role === 'user') return message.content;
			if (message.role === 'assistant') {
				return message.content.trim() ? `[Your earlier reply]\n${message.content}` : '';
			}
			return `[Result of ${message.toolName}${message.isError ? ', an error' : ''}]\n${message.content}`;
		})
		.filter((text) => text !== '')
		.join('\n\n');
}

/** The note the CLI gets for its file changes the runtime refused (each is put back in its folder). */
export function refusedEditsNote(refusals: readonly { path: string; reason: string }[]): string {
	if (refusals.length === 0) return '';
	const lines = refusals.map(({ path, reason }) => `- ${path}: ${reason}`);
	return `These file changes of yours were refused and undone in your folder:\n${lines.join('\n')}`;
}

/** The lane's note where bubblewrap cannot start (the command sandbox's own notice says why). */
export const unsandboxedNote =
	'(no bubblewrap sandbox here: Claude Code runs as a plain process, its own tools still limited to its ' +
	'folder by the permission hook; on cancel its process group is killed)';

/** How our prompt's workspace tools map to the CLI's own (the prompt names ours). */
export function folderNote(dir: string): string {
	return (
		`You work in your own copy of the workspace, ${dir}. Use your own tools (Read, Grep, Glob, Edit, ` +
		'Write) for what this prompt calls read_file, search_files, list_directory, write_file, edit_file and ' +
		'delete_file: the files you change there are your changes. Run commands only with the run_command ' +
		'tool where it is offered; call the workflow tools to end your turn.'
	);
}
