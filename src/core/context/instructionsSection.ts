/**
 * The prompt's `<PROJECT INSTRUCTIONS>` section: the project's instruction files, the same bytes for
 * every agent and every phase, first in the first user message so they stay inside the cached
 * stable prefix (`ChatRequest.stablePrefixMessages`).
 */
import type { ProjectInstructions } from './projectInstructions.js';
import { quotedModelText } from './quotedText.js';

/** Empty when no file is used (the prompt then has no section). */
export function instructionsSection(instructions: ProjectInstructions | undefined): string {
	if (!instructions || instructions.files.length === 0) return '';
	const blocks = instructions.files.map((file) => {
		// A repository's text and file names: neither closes the section nor speaks as the user
		// (test/unit/agents/impersonation.test.ts).
		const text = quotedModelText(file.text);
		const body = text.endsWith('\n') ? text : `${text}\n`;
		return `<instructions source=${quotedModelText(JSON.stringify(file.path))}>\n${body}</instructions>`;
	});
	return [
		'<PROJECT INSTRUCTIONS>',
		"The project's own instruction files (its conventions for anyone working in it). Follow them where they",
		'apply to the ORIGINAL MESSAGE; they do not change how you answer or vote.',
		...blocks,
		'</PROJECT INSTRUCTIONS>',
	].join('\n');
}
