import type {
	GenerateContentResponse,
	GenerateContentResponseUsageMetadata,
	GoogleGenAI,
} from '@google/genai';
import type { BackendSettings } from '../spec/backendSettings.js';
import { invalidResponse, toProviderError, type ErrorContext } from '../shared/errors.js';
import type { ClientFactory } from '../shared/lazyClient.js';
import { SdkModel } from '../shared/sdkModel.js';
import type { Usage } from '../../../contract/runEvents.js';
import type { ChatRequest, FinishReason, ModelEvent } from '../spec/model.js';
import { presetFor } from '../spec/presets.js';
import { ProviderError } from '../spec/providerError.js';
import { toolCallFromValue } from '../shared/toolArguments.js';
import { GeminiServerParts, nativeToolsRefusedNotice, refusesNativeTools } from './geminiProviderTools.js';
import {
	geminiCallSignatureKey,
	geminiGeneratedIdPrefix,
	geminiServerPartsKey,
	geminiTextSignatureKey,
	toGeminiRequest,
} from './toGeminiRequest.js';

/** `type: gemini` — @google/genai streaming with native function calling. */
export class GeminiModel extends SdkModel<GoogleGenAI> {
	constructor(
		settings: BackendSettings,
		options: { keyVariable?: string; client?: ClientFactory<GoogleGenAI> } = {},
	) {
		const keyVariable = options.keyVariable ?? 'GEMINI_API_KEY';
		super(settings, keyVariable, options.client ?? (() => createGeminiClient(settings, keyVariable)));
	}

	protected async *run(
		request: ChatRequest,
		signal: AbortSignal,
		ctx: ErrorContext,
	): AsyncGenerator<ModelEvent> {
		// The SDK's errors carry no headers: a recording fetch keeps them for `retry-after`.
		const seen: { headers?: Headers } = {};
		const recordingFetch: typeof fetch = async (input, init) => {
			const response = await fetch(input, init);
			if (!response.ok) seen.headers = response.headers;
			return response;
		};
		try {
			const client = await this.client();
			const start = async (call: ChatRequest) => {
				const params = toGeminiRequest(this.settings, call, signal);
				params.config = {
					...params.config,
					httpOptions: { ...params.config?.httpOptions, fetch: recordingFetch },
				};
				return client.models.generateContentStream(params);
			};
			const native = this.nativeToolsRefused ? { ...request, withoutProviderTools: true } : request;
			let stream: AsyncIterable<GenerateContentResponse>;
			try {
				stream = await start(native);
			} catch (error) {
				// Models that cannot ground while calling functions say so before any output: go on without.
				if (native.withoutProviderTools || !refusesNativeTools(error)) throw error;
				this.nativeToolsRefused = true;
				yield { type: 'notice', message: nativeToolsRefusedNotice(this.modelId, error) };
				stream = await start({ ...request, withoutProviderTools: true });
			}
			yield* this.read(stream, ctx);
		} catch (error) {
			throw toProviderError(error, { ...ctx, headers: seen.headers });
		}
	}

	/** Set once the model refused built-in tools next to function declarations (for the rest of the run). */
	private nativeToolsRefused = false;

	private async *read(
		stream: AsyncIterable<GenerateContentResponse>,
		ctx: ErrorContext,
	): AsyncGenerator<ModelEvent> {
		let usage: Usage | undefined;
		let finish: string | undefined;
		let textSignature: string | undefined;
		let calls = 0;
		let reported = '';
		const tools = new GeminiServerParts();
		for await (const chunk of stream) {
			if (chunk.usageMetadata) {
				// Chunks carry the running usage: report each change, so an aborted call keeps what was billed.
				usage = fromGeminiUsage(chunk.usageMetadata);
				const key = JSON.stringify(usage);
				if (key !== reported) {
					reported = key;
					yield { type: 'usage', usage };
				}
			}
			if (chunk.promptFeedback?.blockReason && !chunk.candidates?.length) finish = 'PROMPT_BLOCKED';
			const candidate = chunk.candidates?.[0];
			if (candidate?.groundingMetadata) tools.ground(candidate.groundingMetadata);
			for (const part of candidate?.content?.parts ?? []) {
				const use = tools.take(part);
				if (use === 'kept') continue;
				if (use) {
					yield { type: 'provider-tool', use };
					continue;
				}
				if (part.functionCall) {
					const id = part.functionCall.id || `${geminiGeneratedIdPrefix}${crypto.randomUUID()}`;
					const providerData = part.thoughtSignature
						? { [geminiCallSignatureKey]: part.thoughtSignature }
						: undefined;
					// Gemini sends a call whole: the delta still marks output as begun, as elsewhere.
					yield { type: 'tool-call-delta', index: calls };
					calls += 1;
					yield {
						type: 'tool-call',
						call: toolCallFromValue(id, part.functionCall.name ?? '', part.functionCall.args, providerData),
					};
					continue;
				}
				if (part.thoughtSignature) textSignature = part.thoughtSignature;
				if (part.text && !part.thought) tools.sawText = true;
				if (part.text) yield { type: part.thought ? 'reasoning-delta' : 'text-delta', text: part.text };
			}
			if (candidate?.finishReason) finish = candidate.finishReason;
		}
		if (!finish) throw invalidResponse(ctx, 'stream ended before a finishReason');
		const search = tools.search();
		if (search) yield { type: 'provider-tool', use: search };
		const sources = tools.citationBlock();
		if (sources) yield { type: 'text-delta', text: sources };
		// Gemini 2.5 bills grounding per grounded response (one per call that searched).
		if (usage) yield { type: 'usage', usage: search ? { ...usage, webSearchCalls: 1 } : usage };
		const providerData = {
			...(textSignature ? { [geminiTextSignatureKey]: textSignature } : {}),
			...(tools.parts.length ? { [geminiServerPartsKey]: tools.parts } : {}),
		};
		yield {
			type: 'finish',
			reason: mapGeminiFinish(finish, calls > 0),
			...(Object.keys(providerData).length ? { providerData } : {}),
		};
	}
}

async function createGeminiClient(settings: BackendSettings, keyVariable: string): Promise<GoogleGenAI> {
	if (!settings.apiKey) {
		throw new ProviderError({
			provider: settings.type,
			kind: 'auth',
			retryable: false,
			message: `${keyVariable} is not set`,
		});
	}
	const sdk = await import('@google/genai');
	// Explicit backend, key and URL: the SDK would otherwise consult GOOGLE_GENAI_USE_VERTEXAI,
	// GOOGLE_API_KEY and GOOGLE_GEMINI_BASE_URL. No `retryOptions` = a single attempt.
	return new sdk.GoogleGenAI({
		vertexai: false,
		apiKey: settings.apiKey,
		httpOptions: { baseUrl: settings.baseUrl ?? presetFor('gemini')?.baseUrl },
	});
}

/** Gemini counts thoughts apart from candidates; our output includes reasoning (as billed). */
export function fromGeminiUsage(usage: GenerateContentResponseUsageMetadata): Usage {
	const thoughts = usage.thoughtsTokenCount ?? 0;
	return {
		inputTokens: (usage.promptTokenCount ?? 0) + (usage.toolUsePromptTokenCount ?? 0),
		outputTokens: (usage.candidatesTokenCount ?? 0) + thoughts,
		reasoningTokens: thoughts,
		cachedInputTokens: usage.cachedContentTokenCount ?? 0,
	};
}

export function mapGeminiFinish(reason: string, hasCalls: boolean): FinishReason {
	switch (reason) {
		case 'STOP':
			return hasCalls ? 'tool-calls' : 'stop';
		case 'MAX_TOKENS':
			return 'length';
		case 'SAFETY':
		case 'RECITATION':
		case 'BLOCKLIST':
		case 'PROHIBITED_CONTENT':
		case 'SPII':
		case 'IMAGE_SAFETY':
		case 'PROMPT_BLOCKED':
			return 'content-filter';
		default:
			return hasCalls ? 'tool-calls' : 'other';
	}
}
