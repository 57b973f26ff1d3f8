import * as vscode from 'vscode';
import type { ChatMessage, ChatRequest, ToolDefinition } from '../../core/providers/spec/model.js';

type UserPart =
	vscode.LanguageModelTextPart | vscode.LanguageModelToolResultPart | vscode.LanguageModelDataPart;
type AssistantPart = vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart;

/**
 * Our normalised prompt as `vscode.lm` messages. The stable API has no system role, so the system
 * prompt opens the first user message. Consecutive tool results become one user message of
 * LanguageModelToolResultParts (each answering its call id), as the API expects after an
 * assistant message with tool calls. A user message's images (given only to a model that declares
 * image input, `promptContext`) follow its text as `LanguageModelDataPart.image` parts.
 */
export function toLmMessages(request: ChatRequest): vscode.LanguageModelChatMessage[] {
	const out: vscode.LanguageModelChatMessage[] = [];
	let pendingUser: UserPart[] = request.system.trim()
		? [new vscode.LanguageModelTextPart(request.system)]
		: [];
	const flushUser = () => {
		if (pendingUser.length > 0) out.push(vscode.LanguageModelChatMessage.User(pendingUser));
		pendingUser = [];
	};
	for (const message of request.messages) {
		switch (message.role) {
			case 'user':
				pendingUser.push(new vscode.LanguageModelTextPart(message.content));
				for (const image of message.images ?? []) {
					pendingUser.push(
						vscode.LanguageModelDataPart.image(Buffer.from(image.base64, 'base64'), image.mediaType),
					);
				}
				break;
			case 'tool':
				pendingUser.push(toolResultPart(message));
				break;
			case 'assistant': {
				flushUser();
				const parts: AssistantPart[] = [];
				if (message.content) parts.push(new vscode.LanguageModelTextPart(message.content));
				for (const call of message.toolCalls ?? []) {
					parts.push(new vscode.LanguageModelToolCallPart(call.id, call.name, call.arguments));
				}
				out.push(vscode.LanguageModelChatMessage.Assistant(parts.length ? parts : ''));
				break;
			}
		}
	}
	flushUser();
	return out;
}

function toolResultPart(message: Extract<ChatMessage, { role: 'tool' }>): vscode.LanguageModelToolResultPart {
	const text = message.isError ? `Error: ${message.content}` : message.content;
	return new vscode.LanguageModelToolResultPart(message.toolCallId, [new vscode.LanguageModelTextPart(text)]);
}

export function toLmTools(tools: readonly ToolDefinition[]): vscode.LanguageModelChatTool[] {
	return tools.map((tool) => ({
		name: tool.name,
		description: tool.description,
		inputSchema: tool.parameters,
	}));
}

/** The whole prompt as text, for token estimates. */
export function promptText(request: ChatRequest): string {
	const parts = [request.system];
	for (const message of request.messages) {
		parts.push(message.content);
		if (message.role === 'assistant') {
			for (const call of message.toolCalls ?? []) parts.push(JSON.stringify(call.arguments));
		}
	}
	return parts.join('\n');
}
