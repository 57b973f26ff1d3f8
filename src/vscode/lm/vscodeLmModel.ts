import * as vscode from 'vscode';
import type {
	ChatModel,
	ChatRequest,
	ModelCapabilities,
	ModelEvent,
	ToolCall,
} from '../../core/providers/spec/model.js';
import { ProviderError } from '../../core/providers/spec/providerError.js';
import { tokenSourceFromSignal } from '../common/cancellation.js';
import { toProviderError } from './lmErrors.js';
import { promptText, toLmMessages, toLmTools } from './lmMessages.js';
import { pickChatModel } from './pickChatModel.js';
import { memberChatModels } from './memberChatModels.js';

/** Finds the chat model a config names; undefined when VS Code has none that matches. */
export type ChatModelLookup = (model: string) => Thenable<vscode.LanguageModelChat | undefined>;

/** The lookup over VS Code's models but our own teams (`memberChatModels`), matched by `pickChatModel`. */
export const lookupChatModel: ChatModelLookup = async (model) =>
	pickChatModel(await memberChatModels(), model);

const justification = () =>
	vscode.l10n.t(
		'MassGen asks a team of language models your question and lets them vote on the best answer.',
	);

/**
 * `type: vscode_lm`: a VS Code language model (e.g. Copilot's) behind the core's ChatModel. The
 * model is looked up at the first call, so building a team never waits for VS Code. Usage is
 * estimated with the model's own tokenizer (`countTokens`): the API reports none.
 */
export class VscodeLmModel implements ChatModel {
	readonly provider = 'vscode_lm';
	readonly capabilities: ModelCapabilities;

	/** `images`: the model declares image input; attached images then go as `LanguageModelDataPart`s. */
	constructor(
		readonly modelId: string,
		private readonly _lookup: ChatModelLookup = lookupChatModel,
		images = false,
	) {
		this.capabilities = { tools: true, reasoning: false, images };
	}

	async *stream(request: ChatRequest, signal: AbortSignal): AsyncIterable<ModelEvent> {
		const tokens = tokenSourceFromSignal(signal);
		// Settles (rejects) on abort, so a stream that does not end promptly cannot hold the run.
		let onAbort!: () => void;
		const aborted = new Promise<never>((_, reject) => {
			onAbort = () => reject(toProviderError(signal.reason, signal, this.modelId));
			if (signal.aborted) onAbort();
			else signal.addEventListener('abort', onAbort, { once: true });
		});
		aborted.catch(() => undefined);
		try {
			const chat = await Promise.race([this._resolve(signal), aborted]);
			let response: vscode.LanguageModelChatResponse;
			try {
				response = await Promise.race([
					chat.sendRequest(
						toLmMessages(request),
						{
							justification: justification(),
							tools: toLmTools(request.tools),
							toolMode: vscode.LanguageModelChatToolMode.Auto,
						},
						tokens.token,
					),
					aborted,
				]);
			} catch (error) {
				throw toProviderError(error, signal, this.modelId);
			}
			let output = '';
			let sawToolCall = false;
			const stream = response.stream[Symbol.asyncIterator]();
			for (;;) {
				let next: IteratorResult<unknown>;
				try {
					next = await Promise.race([stream.next(), aborted]);
				} catch (error) {
					throw toProviderError(error, signal, this.modelId);
				}
				if (signal.aborted) throw toProviderError(signal.reason, signal, this.modelId);
				if (next.done) break;
				const part = next.value;
				if (part instanceof vscode.LanguageModelTextPart) {
					if (!part.value) continue;
					output += part.value;
					yield { type: 'text-delta', text: part.value };
				} else if (part instanceof vscode.LanguageModelToolCallPart) {
					sawToolCall = true;
					output += JSON.stringify(part.input ?? {});
					yield { type: 'tool-call', call: toToolCall(part) };
				}
				// Other parts (data, future kinds) carry nothing the core uses.
			}
			const usage = await estimateUsage(chat, request, output, tokens.token);
			if (usage) yield { type: 'usage', usage };
			yield { type: 'finish', reason: sawToolCall ? 'tool-calls' : 'stop' };
		} finally {
			signal.removeEventListener('abort', onAbort);
			tokens.dispose();
		}
	}

	private async _resolve(signal: AbortSignal): Promise<vscode.LanguageModelChat> {
		let chat: vscode.LanguageModelChat | undefined;
		try {
			chat = await this._lookup(this.modelId);
		} catch (error) {
			throw toProviderError(error, signal, this.modelId);
		}
		if (!chat) {
			throw new ProviderError({
				provider: this.provider,
				kind: 'invalid-response',
				message: `no VS Code language model matches '${this.modelId}' (is GitHub Copilot, or another model provider, installed and signed in?)`,
			});
		}
		return chat;
	}
}

export function toToolCall(part: vscode.LanguageModelToolCallPart): ToolCall {
	const input: unknown = part.input;
	if (typeof input === 'object' && input !== null && !Array.isArray(input)) {
		return { id: part.callId, name: part.name, arguments: input as Record<string, unknown> };
	}
	const raw = JSON.stringify(input) ?? String(input);
	return {
		id: part.callId,
		name: part.name,
		arguments: {},
		parseError: 'the tool arguments are not a JSON object',
		rawArguments: raw,
	};
}

async function estimateUsage(
	chat: vscode.LanguageModelChat,
	request: ChatRequest,
	output: string,
	token: vscode.CancellationToken,
): Promise<{ inputTokens: number; outputTokens: number } | undefined> {
	try {
		const [inputTokens, outputTokens] = await Promise.all([
			chat.countTokens(promptText(request), token),
			output ? chat.countTokens(output, token) : Promise.resolve(0),
		]);
		return { inputTokens, outputTokens };
	} catch {
		return undefined;
	}
}
