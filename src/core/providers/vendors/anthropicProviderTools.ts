import { safeSources, type CitationList } from '../shared/citations.js';
import type { ProviderToolUse } from '../spec/model.js';

type Json = Record<string, unknown>;

const asRecord = (value: unknown): Json =>
	value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};
const text = (value: unknown): string | undefined => (typeof value === 'string' && value ? value : undefined);

/** Result block types Anthropic's server tools answer with (web search, web fetch, code execution). */
export const anthropicResultTypes = new Set([
	'web_search_tool_result',
	'web_fetch_tool_result',
	'code_execution_tool_result',
	'bash_code_execution_tool_result',
	'text_editor_code_execution_tool_result',
]);

/** A `web_search_result_location` citation on a text block links to the page it quotes. */
export function addAnthropicCitation(citations: CitationList, citation: unknown): void {
	const c = asRecord(citation);
	if (c['type'] === 'web_search_result_location') citations.add(c['title'], c['url']);
}

/** One server tool call (`server_tool_use` input) and its result block, as the lane shows it. */
export function anthropicToolUse(input: Json, result: Json): ProviderToolUse {
	const id = String(result['tool_use_id'] ?? '');
	const content = result['content'];
	const body = asRecord(content);
	const error = typeof body['error_code'] === 'string' ? { isError: true, output: body['error_code'] } : {};
	if (result['type'] === 'web_search_tool_result') {
		const sources = safeSources(Array.isArray(content) ? content.map(asRecord) : []);
		const query = text(input['query']);
		return {
			id,
			kind: 'search',
			...(query ? { query } : {}),
			...(sources.length ? { sources } : {}),
			...error,
		};
	}
	if (result['type'] === 'web_fetch_tool_result') {
		const title = asRecord(body['content'])['title'];
		const sources = safeSources([{ url: body['url'] ?? input['url'], title }]);
		return { id, kind: 'fetch', ...(sources.length ? { sources } : {}), ...error };
	}
	// Code execution: `bash_code_execution` runs a command, `text_editor_code_execution` edits a file in
	// the container, and the older `code_execution` runs Python.
	const code = text(input['code']) ?? describeEdit(input) ?? text(input['command']);
	const output = [text(body['stdout']), text(body['stderr']), text(body['content'])]
		.filter(Boolean)
		.join('\n');
	const exit = typeof body['return_code'] === 'number' && body['return_code'] !== 0;
	return {
		id,
		kind: 'code',
		...(code ? { code } : {}),
		...(output ? { output } : {}),
		...(exit ? { isError: true } : {}),
		...error,
	};
}

function describeEdit(input: Json): string | undefined {
	const path = text(input['path']);
	return path ? `${String(input['command'] ?? 'edit')} ${path}` : undefined;
}
