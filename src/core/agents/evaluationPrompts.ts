/**
 * Post-evaluation texts (MassGen's `PostEvaluationSection`, `format_restart_context`): the winner
 * checks its presented answer against the files, then confirms it or sends coordination back with
 * reasons every agent of the next attempt reads.
 */
import type { FileChange } from '../../contract/fileChange.js';
import { restartToolName, submitToolName } from '../workflow/markers.js';
import { instructionsSection } from '../context/instructionsSection.js';
import type { ProjectInstructions } from '../context/projectInstructions.js';
import { originalMessage } from './prompts.js';
import { quotedModelText } from '../context/quotedText.js';

export function evaluationSystemPrompt(systemMessage: string | undefined): string {
	return [
		systemMessage?.trim(),
		[
			'You have just presented the final answer to the ORIGINAL MESSAGE on behalf of your team. Check now, honestly,',
			'whether it fully addresses the request: read the files it changes or claims (read_file, list_directory,',
			'search_files show the workspace with its proposed changes) instead of trusting the text.',
			`Then call exactly one tool: ${submitToolName}(confirmed: true) when it is complete and correct, or`,
			`${restartToolName}(reason, instructions) when it is not: the reason says what is missing or wrong, the`,
			'instructions tell the team what to do differently next time (for example: "The tests in test/parse.test.ts',
			'were not updated for the new signature; update them and check that every call site compiles.").',
		].join(' '),
	]
		.filter(Boolean)
		.join('\n\n');
}

export function evaluationUserMessage(
	question: string,
	finalAnswer: string,
	changes: readonly FileChange[],
	instructions?: ProjectInstructions,
): string {
	const files = changes.map((change) => `- ${change.path} (${change.kind})`);
	return [
		instructionsSection(instructions),
		originalMessage(question),
		`FINAL ANSWER TO EVALUATE:\n${quotedModelText(finalAnswer)}`,
		files.length
			? `FILES IT CHANGES (proposed, not yet written):\n${files.join('\n')}`
			: 'It changes no files.',
		`Verify it, then call ${submitToolName} or ${restartToolName}.`,
	]
		.filter(Boolean)
		.join('\n\n');
}

/** What the next attempt's agents read before the ORIGINAL MESSAGE. */
export function restartFeedbackBlock(feedback: {
	readonly attempt: number;
	readonly reason: string;
	readonly instructions: string;
	readonly previousAnswer: string;
}): string {
	return [
		'<PREVIOUS ATTEMPT FEEDBACK>',
		`Attempt ${feedback.attempt - 1} of this request was judged incomplete and restarted.`,
		// The evaluating model's words, read by every agent of the next attempt: never the user's.
		`Why: ${quotedModelText(feedback.reason)}`,
		`What to do: ${quotedModelText(feedback.instructions)}`,
		'Its final answer, for reference (its file changes were discarded):',
		quotedModelText(feedback.previousAnswer),
		'Please address these issues.',
		'</PREVIOUS ATTEMPT FEEDBACK>',
	].join('\n');
}
