import { presetFor } from './presets.js';

/** The provider-native tools a config can turn on (MassGen's `enable_web_search`, `enable_code_execution`). */
export interface ProviderToolSwitches {
	readonly webSearch?: boolean;
	/** MassGen's `enable_code_execution` (Claude) and `enable_code_interpreter` (OpenAI) alike. */
	readonly codeExecution?: boolean;
}

export type ProviderToolName = keyof ProviderToolSwitches;

/** Which OpenAI-compatible servers run a web search of their own, by backend type (after the base URL's host). */
function chatVendor(type: string, baseUrl: string | undefined): string {
	if (type !== 'chatcompletion' || !baseUrl) return type;
	try {
		return /(^|\.)openrouter\.ai$/.test(new URL(baseUrl).hostname) ? 'openrouter' : type;
	} catch {
		return type;
	}
}

/**
 * Why this backend cannot run a provider tool, or undefined when it can. Responses, Messages and
 * Gemini have both tools; OpenRouter's chat API has a web plugin; xAI retired Live Search on chat
 * completions (`search_parameters` answers 410 Gone) for tools of its Responses API, where a `grok`
 * agent with web search goes (`xaiResponses.ts`).
 */
export function providerToolUnsupported(
	tool: ProviderToolName,
	type: string,
	baseUrl?: string,
): string | undefined {
	const api = presetFor(type)?.api;
	if (api === 'responses' || api === 'anthropic' || api === 'gemini') return undefined;
	const vendor = chatVendor(type, baseUrl);
	if (tool === 'webSearch' && vendor === 'openrouter') return undefined;
	if (api !== 'chat-completions') return `type ${type} runs no provider-side tools`;
	if (vendor === 'grok') {
		if (tool === 'webSearch') return undefined;
		return "type grok: xAI's code execution tool is not supported here yet";
	}
	const what = tool === 'webSearch' ? 'web search' : 'code execution';
	return `type ${type} is an OpenAI-compatible chat server with no provider-side ${what} we know of`;
}

/** The switches this backend can honour (the others dropped: `validate` names them). */
export function supportedProviderTools(
	switches: ProviderToolSwitches,
	type: string,
	baseUrl?: string,
): ProviderToolSwitches | undefined {
	const webSearch = switches.webSearch === true && !providerToolUnsupported('webSearch', type, baseUrl);
	const codeExecution =
		switches.codeExecution === true && !providerToolUnsupported('codeExecution', type, baseUrl);
	if (!webSearch && !codeExecution) return undefined;
	return { ...(webSearch ? { webSearch } : {}), ...(codeExecution ? { codeExecution } : {}) };
}
