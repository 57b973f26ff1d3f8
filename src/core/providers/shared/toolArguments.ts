import type { ToolCall } from '../spec/model.js';

/**
 * Builds a `ToolCall` from the provider's argument text. Invalid JSON never throws: the call
 * carries `parseError` and `rawArguments`, so the agent can answer the model with a tool error.
 */
export function toolCallFromText(
	id: string,
	name: string,
	raw: string,
	providerData?: Record<string, unknown>,
): ToolCall {
	const base = providerData ? { id, name, providerData } : { id, name };
	if (raw.trim() === '') return { ...base, arguments: {} };
	let parsed: unknown;
	try {
		parsed = JSON.parse(raw);
	} catch (error) {
		return {
			...base,
			arguments: {},
			parseError: `invalid JSON arguments: ${(error as Error).message}`,
			rawArguments: raw,
		};
	}
	return toolCallFromValue(id, name, parsed, providerData, raw);
}

/** Builds a `ToolCall` from arguments the SDK already parsed (Anthropic `input`, Gemini `args`). */
export function toolCallFromValue(
	id: string,
	name: string,
	value: unknown,
	providerData?: Record<string, unknown>,
	raw?: string,
): ToolCall {
	const base = providerData ? { id, name, providerData } : { id, name };
	if (value === undefined || value === null) return { ...base, arguments: {} };
	if (typeof value === 'object' && !Array.isArray(value)) {
		return { ...base, arguments: value as Record<string, unknown> };
	}
	return {
		...base,
		arguments: {},
		parseError: 'arguments are not a JSON object',
		rawArguments: raw ?? (typeof value === 'string' ? value : JSON.stringify(value)),
	};
}

/** The argument text to send back to an API for an earlier call (the raw text when it did not parse). */
export function argumentsText(call: ToolCall): string {
	return call.rawArguments ?? JSON.stringify(call.arguments);
}
