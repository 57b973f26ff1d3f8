import type { ChatMessage } from '../providers/spec/model.js';
import { quotedModelText } from '../context/quotedText.js';
import { bytesPerToken, estimateMessageTokens, estimateTextTokens } from './tokenEstimate.js';

/**
 * How a conversation is cut for compaction: the task (the first message, the cached prefix) and
 * the pinned messages (the latest answers) stay verbatim, the last response and what followed it
 * (its tool results, a budget or UPDATE message) stay as the tail, everything between is summarised.
 */
export interface CompactionPlan {
	readonly first: ChatMessage;
	readonly middle: readonly ChatMessage[];
	readonly pinned: readonly ChatMessage[];
	readonly tail: readonly ChatMessage[];
}

export function planCompaction(
	messages: readonly ChatMessage[],
	isPinned: (message: ChatMessage) => boolean,
): CompactionPlan {
	const [first, ...rest] = messages;
	if (!first) throw new Error('planCompaction: a conversation starts with the task');
	// The tail starts at the last response, so every tool result keeps the call it answers.
	let tailStart = rest.length;
	for (let i = rest.length - 1; i >= 0; i--) {
		if (rest[i]!.role === 'assistant') {
			tailStart = i;
			break;
		}
	}
	const before = rest.slice(0, tailStart);
	return {
		first,
		middle: before.filter((message) => !isPinned(message)),
		pinned: before.filter(isPinned),
		tail: rest.slice(tailStart),
	};
}

export function messagesTokens(messages: readonly ChatMessage[]): number {
	return messages.reduce((sum, message) => sum + estimateMessageTokens(message), 0);
}

/** `text` cut to about `maxChars`: its start and end kept, the cut said in the text. */
export function clipText(text: string, maxChars: number): string {
	if (text.length <= maxChars) return text;
	const cut = text.length - Math.max(0, maxChars);
	const marker = `\n…[${cut} characters cut to fit the context window]…\n`;
	const room = Math.max(0, maxChars - marker.length);
	const head = Math.ceil(room * 0.7);
	return `${text.slice(0, head)}${marker}${text.slice(text.length - (room - head))}`;
}

/** Least characters a clipped piece keeps, so it still says what it was. */
const minPieceChars = 200;

/**
 * Character allowances for `lengths` that add up to at most `totalChars`, shared fairly: a piece
 * shorter than its share keeps all of it and leaves the rest to the longer ones (water-filling).
 */
export function fairShares(lengths: readonly number[], totalChars: number): number[] {
	const order = lengths.map((length, index) => ({ length, index })).sort((a, b) => a.length - b.length);
	const shares = new Array<number>(lengths.length).fill(0);
	let left = Math.max(0, totalChars);
	order.forEach(({ length, index }, position) => {
		const share = Math.floor(left / (order.length - position));
		shares[index] = Math.max(Math.min(length, share), Math.min(length, minPieceChars));
		left -= shares[index]!;
	});
	return shares;
}

/** The tail with its tool results clipped so that it uses at most about `maxTokens` (as far as clipping can). */
export function clipToolResults(tail: readonly ChatMessage[], maxTokens: number): ChatMessage[] {
	if (messagesTokens(tail) <= maxTokens) return [...tail];
	const results = tail.filter((message) => message.role === 'tool');
	const others = messagesTokens(tail.filter((message) => message.role !== 'tool'));
	const overhead = results.reduce((sum, m) => sum + estimateMessageTokens({ ...m, content: '' }), 0);
	let budgetChars = Math.max(0, (maxTokens - others - overhead) * bytesPerToken);
	for (let attempt = 0; ; attempt++) {
		const shares = fairShares(
			results.map((message) => message.content.length),
			budgetChars,
		);
		const clipped = tail.map((message) => {
			const at = message.role === 'tool' ? results.indexOf(message) : -1;
			return at < 0 ? message : { ...message, content: clipText(message.content, shares[at]!) };
		});
		// Characters of several bytes take more tokens than the byte share assumed: shrink and cut again.
		if (messagesTokens(clipped) <= maxTokens || attempt >= 4 || budgetChars === 0) return clipped;
		budgetChars = Math.floor(budgetChars * 0.6);
	}
}

/** One message as a transcript line: who said it, and what (tool calls with their arguments). */
function transcriptEntry(message: ChatMessage): string {
	if (message.role === 'tool') {
		return `[result of ${message.toolName}${message.isError ? ', an error' : ''}]\n${message.content}`;
	}
	if (message.role === 'user') return `[message]\n${message.content}`;
	const calls = (message.toolCalls ?? []).map(
		(call) => `called ${call.name} ${JSON.stringify(call.arguments)}`,
	);
	return [`[you]`, message.content, ...calls].filter(Boolean).join('\n');
}

/**
 * The messages as plain text in at most about `maxTokens`, each entry clipped to a fair share.
 * Deterministic: the same messages and budget always give the same text.
 */
export function transcript(messages: readonly ChatMessage[], maxTokens: number): string {
	const entries = messages.map(transcriptEntry);
	let budgetChars = Math.max(0, maxTokens * bytesPerToken - entries.length * 2);
	for (let attempt = 0; ; attempt++) {
		const shares = fairShares(
			entries.map((entry) => entry.length),
			budgetChars,
		);
		const text = entries.map((entry, i) => clipText(entry, shares[i]!)).join('\n\n');
		if (estimateTextTokens(text) <= maxTokens || attempt >= 4 || budgetChars === 0) return text;
		budgetChars = Math.floor(budgetChars * 0.6);
	}
}

export type CompactionHow = 'summary' | 'truncation';

/** What replaces the summarised messages in the conversation. */
export function summaryMessage(text: string, count: number, how: CompactionHow): ChatMessage {
	const intro =
		how === 'summary'
			? `[${count} earlier messages of this turn were replaced by this summary of them, to fit the context window]`
			: `[${count} earlier messages of this turn were shortened to fit the context window; their start and end follow]`;
	// The summary (and the clipped transcript) are a model's words and tool results: never the user's.
	return { role: 'user', content: `${intro}\n\n${quotedModelText(text)}` };
}
