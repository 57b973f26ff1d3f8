import type { AnswerRecord, AnswerSnapshot } from '../orchestrator/board.js';
import type { Sensitivity, Turn } from '../orchestrator/types.js';

/**
 * Prompt texts. They speak only of anonymous ids (`agentN`): config ids never reach a model,
 * and an agent is never told which answer is its own.
 */

const votingCriteria: Record<Sensitivity, string> = {
	lenient: 'If the best current answer addresses the original message well, vote for it.',
	balanced:
		'Vote only if the best current answer is comprehensive, accurate and complete, and could not be meaningfully improved; otherwise write a better one.',
	strict:
		'Vote only if the best current answer is excellent: it covers every aspect and edge case at reference quality. Otherwise write a better one.',
};

const noveltyRules: Record<Sensitivity, string> = {
	lenient: '',
	balanced:
		'A new answer must differ meaningfully from the existing ones; answers too similar to another are rejected.',
	strict:
		'A new answer must take a clearly different or substantially better approach; near-copies are rejected.',
};

export function coordinationSystemPrompt(options: {
	readonly systemMessage?: string;
	readonly votingSensitivity: Sensitivity;
	readonly noveltyRequirement: Sensitivity;
}): string {
	const parts = [
		options.systemMessage?.trim(),
		[
			'You are one member of a team of AI agents working on the same request. Each of you answers the whole request;',
			'you see the latest answers of the team, anonymised as agent1, agent2, … (one of them may be your own earlier work).',
			'Decide whether the best current answer already addresses the ORIGINAL MESSAGE.',
			votingCriteria[options.votingSensitivity],
			'If not, combine the strengths of the answers, fix their weaknesses, and submit an improved, complete answer with new_answer.',
			noveltyRules[options.noveltyRequirement],
		]
			.filter(Boolean)
			.join(' '),
		[
			'The workspace is read-only context; read_file, list_directory and search_files show it.',
			'Your file edits (write_file, edit_file, delete_file) go to your private copy and travel with your answer;',
			'use view_answer_changes to inspect the file changes an answer proposes. Check files, not claims, before you vote.',
		].join(' '),
		'End every turn with exactly one workflow call: new_answer(content) with your complete answer, or vote(agent_id, reason). Do not only describe the call: make it.',
	];
	return parts.filter(Boolean).join('\n\n');
}

export function coordinationUserMessage(
	question: string,
	history: readonly Turn[],
	snapshot: AnswerSnapshot,
): string {
	return [historyBlock(history), originalMessage(question), currentAnswers(snapshot)]
		.filter(Boolean)
		.join('\n\n');
}

export function updateMessage(changed: readonly AnswerRecord[]): string {
	return [
		'UPDATE: while you were working, the team produced new answers:',
		changed.map((answer) => answerBlock(answer)).join('\n'),
		'You may continue your own approach, build on these answers, or vote. Your earlier work is kept.',
	].join('\n\n');
}

export function staleVoteMessage(changed: readonly AnswerRecord[]): string {
	return `Vote not counted: new answers arrived before it.\n\n${updateMessage(changed)}`;
}

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
}): string {
	const answers = options.answers.map((answer) =>
		answerBlock(answer, answer.anonId === options.ownAnonId ? ' (your answer)' : ''),
	);
	const votes = options.voteReasons.map((vote) => `- for ${vote.label}: ${vote.reason}`);
	return [
		historyBlock(options.history),
		originalMessage(options.question),
		answers.length ? `ANSWERS FROM THE TEAM:\n${answers.join('\n')}` : '',
		votes.length ? `VOTING RESULTS:\n${votes.join('\n')}` : '',
		'Present the final answer now.',
	]
		.filter(Boolean)
		.join('\n\n');
}

export function singleAgentUserMessage(question: string, history: readonly Turn[]): string {
	return [historyBlock(history), originalMessage(question)].filter(Boolean).join('\n\n');
}

function originalMessage(question: string): string {
	return `<ORIGINAL MESSAGE>\n${question}\n</ORIGINAL MESSAGE>`;
}

function historyBlock(history: readonly Turn[]): string {
	if (history.length === 0) return '';
	const lines = history.flatMap((turn) => [`User: ${turn.question}`, `Assistant: ${turn.answer}`]);
	return `<CONVERSATION_HISTORY>\n${lines.join('\n')}\n</CONVERSATION_HISTORY>`;
}

function currentAnswers(snapshot: AnswerSnapshot): string {
	if (snapshot.answers.size === 0) return '<CURRENT ANSWERS>\n(no answers yet)\n</CURRENT ANSWERS>';
	return `<CURRENT ANSWERS>\n${[...snapshot.answers.values()].map((a) => answerBlock(a)).join('\n')}\n</CURRENT ANSWERS>`;
}

function answerBlock(answer: AnswerRecord, note = ''): string {
	const files = [...answer.overlay.edits.keys()];
	const changes = files.length ? `\n(This answer changes ${files.length} file(s): ${files.join(', ')}.)` : '';
	return `<answer id="${answer.anonId}"${note ? ` note="${note.trim()}"` : ''}>\n${answer.content}${changes}\n</answer>`;
}
