import type {
	Content,
	FunctionDeclaration,
	GenerateContentConfig,
	GenerateContentParameters,
	Part,
	Tool,
} from '@google/genai';
import type { BackendSettings } from '../spec/backendSettings.js';
import type { ChatRequest, ToolDefinition } from '../spec/model.js';
import { camelCaseKeys, passThroughOptions } from '../shared/passThrough.js';

/** Key under which an assistant message's `providerData` carries the signature of its text part. */
export const geminiTextSignatureKey = 'geminiThoughtSignature';
/** `ToolCall.providerData` key of the call's thought signature. */
export const geminiCallSignatureKey = 'thoughtSignature';
/** Prefix of the ids the adapter makes up when Gemini sends none; they are never sent back. */
export const geminiGeneratedIdPrefix = 'gemini_call_';
/** Key of a model turn's built-in tool parts (code and its result, server tool calls), echoed in order. */
export const geminiServerPartsKey = 'geminiServerParts';

/**
 * Our request → `generateContentStream` parameters. Tools use native function calling with
 * the JSON Schema passed as `parametersJsonSchema` (no lossy conversion to Gemini's Schema).
 * The SDK's automatic function calling and automatic continuation (which re-sends requests)
 * are switched off: one call is one HTTP request, and retries belong to the orchestrator.
 */
export function toGeminiRequest(
	settings: BackendSettings,
	request: ChatRequest,
	signal: AbortSignal,
): GenerateContentParameters {
	const extra = camelCaseKeys(passThroughOptions(settings, request)) as GenerateContentConfig;
	const native = request.withoutProviderTools ? undefined : settings.providerTools;
	const tools: Tool[] = [
		...(request.tools.length ? [{ functionDeclarations: request.tools.map(toGeminiFunction) }] : []),
		...(native?.webSearch ? [{ googleSearch: {} }] : []),
		...(native?.codeExecution ? [{ codeExecution: {} }] : []),
	];
	// Gemini 3 combines built-in tools with function calling only when asked to show their calls.
	const combined = request.tools.length > 0 && tools.length > 1;
	const config: GenerateContentConfig = {
		abortSignal: signal,
		automaticFunctionCalling: { disable: true },
		automaticContinuation: false,
		...(request.system ? { systemInstruction: request.system } : {}),
		...(tools.length ? { tools } : {}),
		...(combined ? { toolConfig: { includeServerSideToolInvocations: true } } : {}),
		...(/gemini-(2\.5|[3-9])/.test(settings.model) ? { thinkingConfig: { includeThoughts: true } } : {}),
	};
	const temperature = request.temperature ?? settings.temperature;
	const maxTokens = request.maxOutputTokens ?? settings.maxTokens;
	if (temperature !== undefined) config.temperature = temperature;
	if (maxTokens !== undefined) config.maxOutputTokens = maxTokens;
	return {
		model: settings.model,
		contents: toGeminiContents(request),
		config: { ...config, ...extra, abortSignal: signal },
	};
}

export function toGeminiFunction(tool: ToolDefinition): FunctionDeclaration {
	return { name: tool.name, description: tool.description, parametersJsonSchema: tool.parameters };
}

/**
 * Contents in Gemini's shape: assistant → `model` with `functionCall` parts (signatures echoed),
 * tool results → `functionResponse` parts (`{output}` or `{error}`), same-role turns merged so
 * all responses to one model turn travel together.
 */
export function toGeminiContents(request: ChatRequest): Content[] {
	const out: Content[] = [];
	for (const message of request.messages) {
		const parts: Part[] = [];
		let role: 'user' | 'model' = 'user';
		switch (message.role) {
			case 'user':
				if (message.content) parts.push({ text: message.content });
				for (const image of message.images ?? []) {
					parts.push({ inlineData: { mimeType: image.mediaType, data: image.base64 } });
				}
				break;
			case 'assistant': {
				role = 'model';
				const server = message.providerData?.[geminiServerPartsKey];
				if (Array.isArray(server)) parts.push(...(server as Part[]));
				const signature = message.providerData?.[geminiTextSignatureKey];
				if (message.content) {
					parts.push({
						text: message.content,
						...(typeof signature === 'string' ? { thoughtSignature: signature } : {}),
					});
				}
				for (const call of message.toolCalls ?? []) {
					const callSignature = call.providerData?.[geminiCallSignatureKey];
					const ours = call.id.startsWith(geminiGeneratedIdPrefix);
					parts.push({
						functionCall: { ...(ours ? {} : { id: call.id }), name: call.name, args: call.arguments },
						...(typeof callSignature === 'string' ? { thoughtSignature: callSignature } : {}),
					});
				}
				break;
			}
			case 'tool': {
				const id = message.toolCallId;
				parts.push({
					functionResponse: {
						...(id.startsWith(geminiGeneratedIdPrefix) ? {} : { id }),
						name: message.toolName,
						response: message.isError ? { error: message.content } : { output: message.content },
					},
				});
				break;
			}
		}
		if (!parts.length) continue;
		const last = out.at(-1);
		if (last && last.role === role) last.parts = [...(last.parts ?? []), ...parts];
		else out.push({ role, parts });
	}
	return out;
}
