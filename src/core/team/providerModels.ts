import { defaultLocalBaseUrls } from '../config/defaultTeam.js';
import { createOpenAIClient } from '../providers/shared/openaiClient.js';
import { presetFor } from '../providers/spec/presets.js';

/** A provider's models when its API does not say (no list endpoint, offline, slow, refused). */
export const curatedModels: Readonly<Record<string, readonly string[]>> = {
	openai: ['gpt-5-mini', 'gpt-5', 'gpt-4.1-mini'],
	claude: ['claude-sonnet-4-5', 'claude-haiku-4-5', 'claude-opus-4-1'],
	gemini: ['gemini-2.5-flash', 'gemini-2.5-pro'],
	grok: ['grok-4', 'grok-3-mini'],
	openrouter: ['openai/gpt-5-mini', 'anthropic/claude-sonnet-4.5', 'google/gemini-2.5-flash'],
	groq: ['llama-3.3-70b-versatile', 'openai/gpt-oss-120b'],
	together: ['meta-llama/Llama-3.3-70B-Instruct-Turbo'],
	cerebras: ['llama-3.3-70b', 'gpt-oss-120b'],
	fireworks: ['accounts/fireworks/models/llama-v3p3-70b-instruct'],
};

/** How long a model list may take before the curated list is used. */
export const listTimeoutMs = 4_000;

export interface ModelList {
	readonly models: readonly string[];
	/** `api`: the provider listed them; `curated`: our short list (with why the API did not answer). */
	readonly from: 'api' | 'curated';
	readonly note?: string;
}

/**
 * The provider's models through its official SDK (`models.list`: OpenAI and OpenAI-compatible,
 * Anthropic, Gemini), time-boxed; the curated list when the API fails or is slow. Keys go to
 * their own vendor only (the SDKs are given key and URL explicitly, nothing from the environment).
 */
export async function listProviderModels(
	type: string,
	apiKey: string,
	baseUrl?: string,
	timeoutMs = listTimeoutMs,
): Promise<ModelList> {
	const signal = AbortSignal.timeout(timeoutMs);
	try {
		const models = await Promise.race([fetchModels(type, apiKey, baseUrl, signal), aborted(signal)]);
		if (models.length > 0) return { models: [...models].sort(), from: 'api' };
		return curated(type, 'the provider listed no models');
	} catch (error) {
		// Only the status, never the SDK's message: it is shown outside the run's redactor.
		const status = (error as { status?: unknown }).status;
		const why =
			typeof status === 'number' ? `the model list failed (HTTP ${status})` : 'the model list failed';
		return curated(type, signal.aborted ? `no answer within ${timeoutMs / 1000} s` : why);
	}
}

/** A local OpenAI-compatible server's models (`GET <baseUrl>/models`), [] when it does not answer. */
export async function listLocalModels(baseUrl: string, timeoutMs = 1_000): Promise<string[]> {
	try {
		const response = await fetch(`${baseUrl.replace(/\/+$/, '')}/models`, {
			signal: AbortSignal.timeout(timeoutMs),
		});
		if (!response.ok) return [];
		const body = (await response.json()) as { data?: { id?: unknown }[] };
		return (body.data ?? []).map((m) => m.id).filter((id): id is string => typeof id === 'string');
	} catch {
		return [];
	}
}

export interface LocalServer {
	readonly type: string;
	readonly baseUrl: string;
	readonly models: readonly string[];
}

/** The local servers answering on their usual ports (Ollama, LM Studio, vLLM, SGLang), with their models. */
export async function findLocalServers(
	urls: Readonly<Record<string, string>> = defaultLocalBaseUrls,
): Promise<LocalServer[]> {
	const found = await Promise.all(
		Object.entries(urls).map(async ([type, baseUrl]) => ({
			type,
			baseUrl,
			models: await listLocalModels(baseUrl),
		})),
	);
	return found.filter((server) => server.models.length > 0);
}

async function fetchModels(type: string, apiKey: string, baseUrl: string | undefined, signal: AbortSignal) {
	if (type === 'claude') {
		const sdk = await import('@anthropic-ai/sdk');
		const client = new sdk.Anthropic({
			apiKey,
			baseURL: baseUrl ?? presetFor('claude')?.baseUrl,
			maxRetries: 0,
			logLevel: 'off',
		});
		const ids: string[] = [];
		for await (const model of client.models.list({ limit: 100 }, { signal })) ids.push(model.id);
		return ids;
	}
	if (type === 'gemini') {
		const sdk = await import('@google/genai');
		const client = new sdk.GoogleGenAI({
			vertexai: false,
			apiKey,
			httpOptions: { baseUrl: baseUrl ?? presetFor('gemini')?.baseUrl },
		});
		const ids: string[] = [];
		const pager = await client.models.list({ config: { pageSize: 100, abortSignal: signal } });
		for await (const model of pager) {
			if (model.name && (model.supportedActions ?? ['generateContent']).includes('generateContent')) {
				ids.push(model.name.replace(/^models\//, ''));
			}
		}
		return ids;
	}
	if (presetFor(type)?.api === 'responses' || presetFor(type)?.api === 'chat-completions') {
		const client = await createOpenAIClient({ type, model: '', apiKey, baseUrl, options: {} }, undefined);
		const ids: string[] = [];
		for await (const model of client.models.list({ signal })) ids.push(model.id);
		// OpenAI lists embeddings, audio and image models too: keep the chat ones.
		return type === 'openai'
			? ids.filter(
					(id) => /^(gpt-|o\d|chatgpt-)/.test(id) && !/audio|realtime|image|tts|transcribe|search/.test(id),
				)
			: ids;
	}
	return [];
}

function curated(type: string, note: string): ModelList {
	return { models: curatedModels[type] ?? [], from: 'curated', note };
}

function aborted(signal: AbortSignal): Promise<never> {
	return new Promise((_, reject) =>
		signal.addEventListener('abort', () => reject(new Error('timed out')), { once: true }),
	);
}
