import { contextSection } from '../context/contextSection.js';
import { instructionsSection } from '../context/instructionsSection.js';
import { reviewSection } from '../context/reviewSection.js';
import { noContext, type PromptContext } from '../context/promptContext.js';
import { answerTagOpening } from '../workflow/markers.js';
import type { AnswerRecord, AnswerSnapshot } from './answers.js';
import { quotedModelText } from '../context/quotedText.js';
import { checklistVotingRule } from './checklistPrompts.js';
import type { Sensitivity, Turn } from './types.js';

/**
 * Prompt texts. They speak only of anonymous ids (`agentN`): config ids never reach a model,
 * and an agent is never told which answer is its own.
 */

const votingCriteria: Record<Sensitivity, string> = {
	lenient: 'If it addresses the original message well, vote for it.',
	balanced:
		'Vote only if it is comprehensive, accurate and complete, and could not be meaningfully improved.',
	strict: 'Vote only if it is excellent: it covers every aspect and edge case at reference quality.',
};

const noveltyRules: Record<Sensitivity, string> = {
	lenient: '',
	balanced: 'A new answer must differ meaningfully from the existing ones; near-duplicates are rejected.',
	strict:
		'A new answer must take a clearly different or substantially better approach; near-copies are rejected.',
};

export function coordinationSystemPrompt(options: {
	readonly systemMessage?: string;
	readonly votingSensitivity: Sensitivity;
	readonly noveltyRequirement: Sensitivity;
	/** Planning mode's instruction (`planning_mode_instruction`); absent when off. */
	readonly planning?: string;
	/** Checklist evaluation's threshold; absent when off (the voting sensitivity's sentence stays). */
	readonly checklistThreshold?: number;
}): string {
	const parts = [
		options.systemMessage?.trim(),
		[
			'You are one of a team of AI agents, each answering the whole request. You see the latest answers as',
			'agent1, agent2, … (one may be your own earlier work). Decide whether the best current answer already',
			'addresses the ORIGINAL MESSAGE.',
			options.checklistThreshold === undefined
				? votingCriteria[options.votingSensitivity]
				: checklistVotingRule(options.checklistThreshold),
			"Otherwise combine the answers' strengths, fix their weaknesses and submit an improved, complete answer with new_answer.",
			noveltyRules[options.noveltyRequirement],
		]
			.filter(Boolean)
			.join(' '),
		[
			'The workspace is read-only context. Your file edits go to your private copy and travel with your answer;',
			"view_answer_changes shows an answer's file changes. Check files, not claims, before you vote.",
		].join(' '),
		`End every turn with exactly one workflow call: new_answer(content) or ${options.checklistThreshold === undefined ? 'vote(agent_id, reason)' : 'vote(agent_id, reason, scores)'}. Make the call, do not only describe it.`,
		options.planning?.trim(),
	];
	return parts.filter(Boolean).join('\n\n');
}

/**
 * `feedback`: a restarted attempt's block (`restartFeedbackBlock`), the same for every agent;
 * `checklist`: the EVALUATION CHECKLIST block ('' = none).
 */
export function coordinationUserMessage(
	question: string,
	history: readonly Turn[],
	snapshot: AnswerSnapshot,
	context: PromptContext = noContext,
	feedback = '',
	checklist = '',
): string {
	return [
		instructionsSection(context.instructions),
		historyBlock(history),
		contextSection(context),
		reviewSection(context.revision),
		feedback,
		originalMessage(question),
		currentAnswers(snapshot),
		checklist,
	]
		.filter(Boolean)
		.join('\n\n');
}

export function updateMessage(changed: readonly AnswerRecord[]): string {
	return [
		'UPDATE: new answers from the team:',
		changed.map((answer) => answerBlock(answer)).join('\n'),
		'Continue your approach, build on these answers, or vote; your earlier work is kept.',
	].join('\n\n');
}

export function staleVoteMessage(changed: readonly AnswerRecord[]): string {
	return `Vote not counted: new answers arrived before it.\n\n${updateMessage(changed)}`;
}

export const steeredVoteMessage =
	'Vote not counted: the user sent the team a message (below) after you began. Take it into account, then answer or vote again.';

export const enforcementMessage =
	'Finish your turn now with exactly one workflow tool call: new_answer(content) or vote(agent_id, reason).';

export const toolBudgetMessage =
	'Tool call limit for this turn reached. Decide now with new_answer or vote, without further tool calls.';

export function presentationSystemPrompt(systemMessage: string | undefined): string {
	return [
		systemMessage?.trim(),
		[
			'Your team has voted and selected you to present the final answer. Present the best coordinated answer to the',
			"ORIGINAL MESSAGE, combining the strengths of the team's answers. If the request asks for file changes, make them",
			'with write_file, edit_file or delete_file: they are shown to the user as a diff to accept. Reply with the final',
			'answer itself (Markdown), not a description of the process.',
		].join(' '),
	]
		.filter(Boolean)
		.join('\n\n');
}

export function presentationUserMessage(options: {
	readonly question: string;
	readonly history: readonly Turn[];
	readonly answers: readonly AnswerRecord[];
	readonly ownAnonId: string | undefined;
	readonly voteReasons: readonly { readonly label: string; readonly reason: string }[];
	readonly context?: PromptContext;
	readonly feedback?: string;
	/** The winner's unmet criteria (`unmetCriteriaBlock`); absent or '' when none. */
	readonly unmet?: string;
}): string {
	const answers = options.answers.map((answer) =>
		answerBlock(answer, answer.anonId === options.ownAnonId ? ' (your answer)' : ''),
	);
	const votes = options.voteReasons.map((vote) => `- for ${vote.label}: ${quotedModelText(vote.reason)}`);
	return [
		instructionsSection(options.context?.instructions),
		historyBlock(options.history),
		contextSection(options.context ?? noContext),
		reviewSection(options.context?.revision),
		options.feedback ?? '',
		originalMessage(options.question),
		answers.length ? `ANSWERS FROM THE TEAM:\n${answers.join('\n')}` : '',
		votes.length ? `VOTING RESULTS:\n${votes.join('\n')}` : '',
		options.unmet ?? '',
		'Present the final answer now.',
	]
		.filter(Boolean)
		.join('\n\n');
}

export function singleAgentUserMessage(
	question: string,
	history: readonly Turn[],
	context: PromptContext = noContext,
	feedback = '',
): string {
	return [
		instructionsSection(context.instructions),
		historyBlock(history),
		contextSection(context),
		reviewSection(context.revision),
		feedback,
		originalMessage(question),
	]
		.filter(Boolean)
		.join('\n\n');
}

export function originalMessage(question: string): string {
	return `<ORIGINAL MESSAGE>\n${question}\n</ORIGINAL MESSAGE>`;
}

const changeNotes: Record<NonNullable<Turn['changes']>, string> = {
	accepted: 'the user accepted its file changes',
	'partly-accepted': 'the user accepted part of its file changes',
	rejected: 'the user rejected its file changes: they are not in the workspace',
	pending: 'its file changes were proposed, not applied: they are not in the workspace',
	superseded:
		'its file changes were never applied (a later run replaced them): they are not in the workspace',
	reverted: 'the user accepted its file changes, then reverted them: they are not in the workspace',
	revising:
		'its file changes were proposed, not applied; the user sent them back for revision (REVIEW COMMENTS): your copy of the workspace holds them',
};

/** Identical for every agent of a run: it is part of the cached prompt prefix. */
function historyBlock(history: readonly Turn[]): string {
	if (history.length === 0) return '';
	const leftOut = history.filter((turn) => turn.leftOut);
	const summary = leftOut.length
		? [
				`(${leftOut.length} earlier turn(s) left out: ${leftOut.map((t) => JSON.stringify(cut(t.question, 120))).join('; ')})`,
			]
		: [];
	const lines = history
		.filter((turn) => !turn.leftOut)
		.flatMap((turn) => [
			`User: ${turn.question}`,
			...(turn.reviewComments ?? []).map((text) => `User (review comment) ${text}`),
			...(turn.steering ?? []).map((text) => `User (while the team worked): ${text}`),
			`Assistant: ${quotedModelText(turn.answer)}`,
			...(turn.changes ? [`(${changeNotes[turn.changes]}.)`] : []),
		]);
	return `<CONVERSATION_HISTORY>\n${[...summary, ...lines].join('\n')}\n</CONVERSATION_HISTORY>`;
}

function cut(text: string, max: number): string {
	const line = text.replace(/\s+/g, ' ').trim();
	return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function currentAnswers(snapshot: AnswerSnapshot): string {
	if (snapshot.answers.size === 0) return '<CURRENT ANSWERS>\n(no answers yet)\n</CURRENT ANSWERS>';
	return `<CURRENT ANSWERS>\n${[...snapshot.answers.values()].map((a) => answerBlock(a)).join('\n')}\n</CURRENT ANSWERS>`;
}

function answerBlock(answer: AnswerRecord, note = ''): string {
	const files = [...answer.overlay.edits.keys()];
	const changes = files.length ? `\n(This answer changes ${files.length} file(s): ${files.join(', ')}.)` : '';
	return `${answerTagOpening(answer.anonId)}${note ? ` note="${note.trim()}"` : ''}>\n${quotedModelText(answer.content)}${changes}\n</answer>`;
}

/** The summary call's system prompt (`ContextKeeper`): the summary replaces the messages it covers. */
export const compactionSystemPrompt = [
	"You compact an AI agent's working conversation so it fits the model's context window. The agent",
	'will continue from your summary alone: older messages and tool results are dropped. Write, for the',
	'agent: what it has learned (facts, and what the files it read contain that matters, with paths and',
	'names), what it has done and decided, and what is left to do. Keep exact paths, identifiers, numbers',
	'and short code that will be needed. Write only the summary.',
].join(' ');

/** The summary call's message: the task (clipped) for orientation, then the messages to summarise. */
export function compactionUserMessage(task: string, transcript: string): string {
	return `<TASK>\n${task}\n</TASK>\n\n<CONVERSATION TO SUMMARISE>\n${transcript}\n</CONVERSATION TO SUMMARISE>`;
}
