import * as vscode from 'vscode';
import type { AttachmentRequest } from '../../core/context/attachment.js';
import { charsPerToken } from '../../core/run/costEstimate.js';
import type { ConversationMessage } from '../../core/sessions/conversationTurns.js';

/** A chat's messages as the team reads them: the spoken text, and what the user attached as data. */
export interface TeamConversation {
	readonly messages: readonly ConversationMessage[];
	readonly attachments: readonly TextAttachment[];
}

type TextAttachment = Extract<AttachmentRequest, { kind: 'text' }>;

/**
 * The messages VS Code hands a model (`LanguageModelChatRequestMessage`) as plain turns for
 * `conversationRequest`: each message's text parts, joined. Tool calls and tool results are left
 * out (the team calls no tools of the chat's; the models declare `toolCalling: false`). A user's
 * data part holding text (a file's contents, JSON) reaches the team as a text attachment; images
 * are not taken (the models declare no image input).
 */
export function teamConversation(
	messages: readonly vscode.LanguageModelChatRequestMessage[],
): TeamConversation {
	const spoken: ConversationMessage[] = [];
	const attachments: TextAttachment[] = [];
	for (const message of messages) {
		const role = roleOf(message.role);
		const texts: string[] = [];
		for (const part of message.content) {
			if (part instanceof vscode.LanguageModelTextPart) texts.push(part.value);
			else if (role === 'user' && part instanceof vscode.LanguageModelDataPart) {
				const text = dataText(part);
				if (text !== undefined) attachments.push({ kind: 'text', source: part.mimeType, text });
			}
		}
		const said = texts.join('');
		spoken.push({ role, text: role === 'user' ? unwrapPrompt(said) : said });
	}
	return { messages: spoken, attachments };
}

/**
 * The user's words in a message Copilot Chat's Ask mode sends (VS Code 1.139's built-in chat, a
 * picked team in the Chat view: `<prompt>\n…\n</prompt>`, the UI scenario `chatModelPicker`); any
 * other text as it is.
 */
const promptWrapper = /^\s*<prompt>\n((?:(?!<\/prompt>)[\s\S])*)\n<\/prompt>\s*$/;

function unwrapPrompt(text: string): string {
	return promptWrapper.exec(text)?.[1] ?? text;
}

function roleOf(role: vscode.LanguageModelChatMessageRole): ConversationMessage['role'] {
	switch (role) {
		case vscode.LanguageModelChatMessageRole.User:
			return 'user';
		case vscode.LanguageModelChatMessageRole.Assistant:
			return 'assistant';
		default:
			// A system message (VS Code 1.105's proposed role 3), or any role this API adds later.
			return 'system';
	}
}

/** A data part's text when it is text (`text/*`, JSON); undefined for images and other bytes. */
function dataText(part: vscode.LanguageModelDataPart): string | undefined {
	const mime = part.mimeType.toLowerCase();
	if (!mime.startsWith('text/') && !/^application\/([\w.+-]+\+)?json\b/.test(mime)) return undefined;
	const text = new TextDecoder().decode(part.data).trim();
	return text === '' ? undefined : text;
}

/** A token estimate for a text or a message: characters over `charsPerToken`, as the run's cost estimate counts. */
export function estimateTokens(input: string | vscode.LanguageModelChatRequestMessage): number {
	if (typeof input === 'string') return Math.ceil(input.length / charsPerToken);
	const { messages, attachments } = teamConversation([input]);
	const chars = (messages[0]?.text.length ?? 0) + attachments.reduce((sum, a) => sum + a.text.length, 0);
	return Math.ceil(chars / charsPerToken);
}
