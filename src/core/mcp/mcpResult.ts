/**
 * MCP tool results → tool outcomes the model reads: text as is, images and audio as short
 * references (`[image: image/png, 1234 bytes]`; no model here takes binary tool results),
 * resources by URI, structured content as JSON when there is no text, `isError` kept.
 */
import type { ToolOutcome } from '../providers/spec/toolOutcome.js';

interface ContentItem {
	readonly type: string;
	readonly text?: string;
	readonly data?: string;
	readonly mimeType?: string;
	readonly uri?: string;
	readonly name?: string;
	readonly resource?: {
		readonly uri?: string;
		readonly mimeType?: string;
		readonly text?: string;
		readonly blob?: string;
	};
}

export interface McpCallResult {
	readonly content?: readonly ContentItem[];
	readonly structuredContent?: unknown;
	readonly isError?: boolean;
	/** Protocol 2024-10-07 servers answer with `toolResult`. */
	readonly toolResult?: unknown;
}

/** Bytes encoded by a base64 string. */
export function base64Bytes(data: string): number {
	const clean = data.replace(/\s+/g, '');
	const padding = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
	return Math.max(0, Math.floor((clean.length * 3) / 4) - padding);
}

function describeItem(item: ContentItem): string {
	switch (item.type) {
		case 'text':
			return item.text ?? '';
		case 'image':
		case 'audio':
			return `[${item.type}: ${item.mimeType ?? 'unknown type'}, ${base64Bytes(item.data ?? '')} bytes]`;
		case 'resource_link':
			return `[resource link: ${item.uri ?? '?'}${item.name ? ` (${item.name})` : ''}]`;
		case 'resource': {
			const resource = item.resource ?? {};
			if (typeof resource.text === 'string') return `[resource: ${resource.uri ?? '?'}]\n${resource.text}`;
			return `[resource: ${resource.uri ?? '?'}, ${resource.mimeType ?? 'unknown type'}, ${base64Bytes(resource.blob ?? '')} bytes]`;
		}
		default:
			return `[${item.type} content]`;
	}
}

export function toToolOutcome(toolName: string, result: McpCallResult): ToolOutcome {
	const items = result.content ?? [];
	let text = items
		.map(describeItem)
		.filter((part) => part !== '')
		.join('\n');
	if (text === '' && result.structuredContent !== undefined) {
		text = JSON.stringify(result.structuredContent, null, 2);
	}
	if (text === '' && result.toolResult !== undefined) {
		text =
			typeof result.toolResult === 'string' ? result.toolResult : JSON.stringify(result.toolResult, null, 2);
	}
	const isError = result.isError === true;
	if (text === '') text = isError ? 'the tool reported an error without a message' : '(no output)';
	return { text: isError ? `${toolName}: ${text}` : text, isError };
}
