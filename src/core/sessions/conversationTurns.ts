/**
 * A conversation its caller holds (a chat client's messages: the model picker, `massgen serve`)
 * as a run's question and history, the way a follow-up gets them from the run store: the last
 * user message is the question, earlier user and assistant messages pair into turns, cut to the
 * history's size budget (`fitHistory`). System messages are left out, as MassGen's history does:
 * a client's system prompt is written for one model, and the team has its own.
 */
import type { Turn } from '../orchestrator/types.js';
import { defaultHistoryBudget, fitHistory } from './fitHistory.js';

export interface ConversationMessage {
	readonly role: 'system' | 'user' | 'assistant';
	readonly text: string;
}

export type ConversationRequest =
	| { readonly ok: true; readonly question: string; readonly history: readonly Turn[] }
	| { readonly ok: false; readonly message: string };

export function conversationRequest(
	messages: readonly ConversationMessage[],
	budget: number = defaultHistoryBudget,
): ConversationRequest {
	const spoken = messages.filter((message) => message.role !== 'system' && message.text.trim() !== '');
	// The question is the user's messages after the last answer (a client may split one ask in two).
	let start = spoken.length;
	while (start > 0 && spoken[start - 1]!.role === 'user') start--;
	const question = joined(spoken.slice(start));
	if (question === '') return { ok: false, message: 'the conversation must end with a user message' };
	const turns: Turn[] = [];
	let asked: string[] = [];
	let answered: string[] = [];
	const close = (): void => {
		if (asked.length > 0 || answered.length > 0) {
			turns.push({ question: asked.join('\n\n'), answer: answered.join('\n\n') });
		}
		asked = [];
		answered = [];
	};
	for (const message of spoken.slice(0, start)) {
		if (message.role === 'user' && answered.length > 0) close();
		(message.role === 'user' ? asked : answered).push(message.text.trim());
	}
	close();
	return { ok: true, question, history: fitHistory(turns, budget) };
}

function joined(messages: readonly ConversationMessage[]): string {
	return messages
		.map((message) => message.text.trim())
		.join('\n\n')
		.trim();
}
