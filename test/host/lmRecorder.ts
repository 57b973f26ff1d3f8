// A recording LanguageModelChatProvider for in-host tests: real VS Code language models (vendor
// `massgen-test`, declared by the fixture extension test/fixtures/vscode/lm-vendor, which the
// in-host run loads beside MassGen) that `vscode_lm` members reach through `vscode.lm` like Copilot's.
// Each request is recorded as the provider received it; the models answer the coordination's
// workflow tools (a new answer when no answer is shown, else a vote for the first shown) and
// present with a line of text.
import * as vscode from 'vscode';

export const recorderVendor = 'massgen-test';

/** One part of a message as the provider received it. */
export type RecordedPart =
	| { readonly kind: 'text'; readonly text: string }
	| { readonly kind: 'data'; readonly mimeType: string; readonly data: Uint8Array }
	| { readonly kind: 'other'; readonly type: string };

export interface RecordedRequest {
	readonly model: string;
	readonly messages: readonly {
		readonly role: 'user' | 'assistant';
		readonly parts: readonly RecordedPart[];
	}[];
	readonly tools: readonly string[];
}

const model = (id: string, imageInput: boolean): vscode.LanguageModelChatInformation => ({
	id,
	name: id,
	family: id,
	version: '1',
	maxInputTokens: 200_000,
	maxOutputTokens: 8_000,
	capabilities: { imageInput, toolCalling: true },
});

/** `recorder-vision` declares image input, `recorder-text` does not. */
export const recorderModels = [model('recorder-vision', true), model('recorder-text', false)];

function recordPart(part: unknown): RecordedPart {
	if (part instanceof vscode.LanguageModelTextPart) return { kind: 'text', text: part.value };
	if (part instanceof vscode.LanguageModelDataPart) {
		return { kind: 'data', mimeType: part.mimeType, data: new Uint8Array(part.data) };
	}
	return { kind: 'other', type: (part as object)?.constructor?.name ?? typeof part };
}

/** Registers the provider; `requests` fills as the models are called. */
export function registerRecorder(): vscode.Disposable & { readonly requests: RecordedRequest[] } {
	const requests: RecordedRequest[] = [];
	let calls = 0;
	const provider: vscode.LanguageModelChatProvider = {
		provideLanguageModelChatInformation: () => recorderModels,
		async provideLanguageModelChatResponse(info, messages, options, progress) {
			const tools = (options.tools ?? []).map((tool) => tool.name);
			const recorded = messages.map((message) => ({
				role:
					message.role === vscode.LanguageModelChatMessageRole.User
						? ('user' as const)
						: ('assistant' as const),
				parts: message.content.map(recordPart),
			}));
			requests.push({ model: info.id, messages: recorded, tools });
			const call = `call-${++calls}`;
			if (!tools.includes('vote')) {
				progress.report(new vscode.LanguageModelTextPart(`${info.id} presents.`));
				return;
			}
			const text = recorded
				.flatMap((message) => message.parts)
				.map((part) => (part.kind === 'text' ? part.text : ''))
				.join('\n');
			const shown = [...text.matchAll(/<answer id="(agent\d+)"/g)].map((match) => match[1]!).sort();
			progress.report(
				shown.length > 0
					? new vscode.LanguageModelToolCallPart(call, 'vote', { agent_id: shown[0], reason: 'It answers.' })
					: new vscode.LanguageModelToolCallPart(call, 'new_answer', { content: `${info.id} answers.` }),
			);
		},
		provideTokenCount: async (_info, text) => (typeof text === 'string' ? Math.ceil(text.length / 4) : 1),
	};
	const registration = vscode.lm.registerLanguageModelChatProvider(recorderVendor, provider);
	return { requests, dispose: () => registration.dispose() };
}

/** The recorded text of a request's messages, joined. */
export function requestText(request: RecordedRequest): string {
	return request.messages
		.flatMap((message) => message.parts)
		.map((part) => (part.kind === 'text' ? part.text : ''))
		.join('\n');
}
