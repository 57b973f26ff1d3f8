import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** A tool's answer: text blocks, in order. */
export function textResult(...texts: readonly string[]): CallToolResult {
	return { content: texts.filter((text) => text !== '').map((text) => ({ type: 'text', text })) };
}

/** A tool error the calling agent reads and can act on (never a protocol error, never a crash). */
export function toolError(message: string): CallToolResult {
	return { isError: true, content: [{ type: 'text', text: message }] };
}
