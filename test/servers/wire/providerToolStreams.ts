import type { SseEvent } from '../types.js';

/**
 * Streams of provider-native (server-side) tools, in each API's own event shapes: what a model that
 * searched the web, fetched a page or ran code sends. Built as raw events (`enqueue({ events })`).
 */
export interface ServerToolScript {
	readonly query: string;
	readonly sources: readonly { readonly title: string; readonly url: string }[];
	readonly code: string;
	readonly output: string;
	/** The answer text; it cites `sources[0]` and `sources[1]`. */
	readonly text: string;
}

/** OpenAI Responses: `web_search_call` and `code_interpreter_call` output items, `url_citation` annotations. */
export function responsesServerTools(s: ServerToolScript, model = 'gpt-5-mini'): SseEvent[] {
	let seq = 0;
	const out: SseEvent[] = [];
	const emit = (type: string, fields: Record<string, unknown>) =>
		out.push({ event: type, data: { type, sequence_number: seq++, ...fields } });
	const base = { id: 'resp_tools', object: 'response', created_at: 1, model, output: [] };
	emit('response.created', { response: { ...base, status: 'in_progress' } });
	const search = { type: 'web_search_call', id: 'ws_1', status: 'in_progress' };
	emit('response.output_item.added', { output_index: 0, item: search });
	emit('response.web_search_call.in_progress', { output_index: 0, item_id: 'ws_1' });
	emit('response.web_search_call.searching', { output_index: 0, item_id: 'ws_1' });
	emit('response.web_search_call.completed', { output_index: 0, item_id: 'ws_1' });
	const action = {
		type: 'search',
		query: s.query,
		sources: s.sources.map((x) => ({ type: 'url', url: x.url })),
	};
	emit('response.output_item.done', { output_index: 0, item: { ...search, status: 'completed', action } });
	const code = { type: 'code_interpreter_call', id: 'ci_1', container_id: 'cntr_1', code: '', outputs: null };
	emit('response.output_item.added', { output_index: 1, item: { ...code, status: 'in_progress' } });
	emit('response.code_interpreter_call_code.delta', { output_index: 1, item_id: 'ci_1', delta: s.code });
	emit('response.code_interpreter_call_code.done', { output_index: 1, item_id: 'ci_1', code: s.code });
	const outputs = [{ type: 'logs', logs: s.output }];
	const doneCode = { ...code, code: s.code, outputs, status: 'completed' };
	emit('response.output_item.done', { output_index: 1, item: doneCode });
	const message = { type: 'message', id: 'msg_1', role: 'assistant', status: 'in_progress', content: [] };
	emit('response.output_item.added', { output_index: 2, item: message });
	const where = { item_id: 'msg_1', output_index: 2, content_index: 0 };
	emit('response.content_part.added', { ...where, part: { type: 'output_text', text: '', annotations: [] } });
	emit('response.output_text.delta', { ...where, delta: s.text, logprobs: [] });
	const annotations = s.sources.slice(0, 2).map((x, i) => ({
		type: 'url_citation',
		start_index: i,
		end_index: i + 1,
		url: x.url,
		title: x.title,
	}));
	annotations.forEach((annotation, i) =>
		emit('response.output_text.annotation.added', { ...where, annotation_index: i, annotation }),
	);
	emit('response.output_text.done', { ...where, text: s.text, logprobs: [] });
	const part = { type: 'output_text', text: s.text, annotations };
	emit('response.output_item.done', {
		output_index: 2,
		item: { ...message, status: 'completed', content: [part] },
	});
	const usage = {
		input_tokens: 100,
		input_tokens_details: { cached_tokens: 0 },
		output_tokens: 20,
		output_tokens_details: { reasoning_tokens: 0 },
		total_tokens: 120,
	};
	emit('response.completed', { response: { ...base, status: 'completed', usage } });
	return out;
}

/** Anthropic Messages: `server_tool_use` blocks, their `*_tool_result` blocks, `citations_delta` on text. */
export function anthropicServerTools(s: ServerToolScript, model = 'claude-sonnet-4-5'): SseEvent[] {
	const out: SseEvent[] = [];
	const emit = (type: string, fields: Record<string, unknown> = {}) =>
		out.push({ event: type, data: { type, ...fields } });
	const usage = {
		input_tokens: 100,
		output_tokens: 1,
		cache_read_input_tokens: 0,
		cache_creation_input_tokens: 0,
	};
	emit('message_start', {
		message: {
			id: 'msg_tools',
			type: 'message',
			role: 'assistant',
			model,
			content: [],
			stop_reason: null,
			usage,
		},
	});
	const block = (index: number, content_block: unknown, deltas: unknown[] = []) => {
		emit('content_block_start', { index, content_block });
		for (const delta of deltas) emit('content_block_delta', { index, delta });
		emit('content_block_stop', { index });
	};
	const input = (json: string) => [{ type: 'input_json_delta', partial_json: json }];
	block(
		0,
		{ type: 'server_tool_use', id: 'srvtoolu_search', name: 'web_search', input: {} },
		input(JSON.stringify({ query: s.query })),
	);
	block(1, {
		type: 'web_search_tool_result',
		tool_use_id: 'srvtoolu_search',
		content: s.sources.map((x) => ({
			type: 'web_search_result',
			title: x.title,
			url: x.url,
			encrypted_content: 'enc',
			page_age: null,
		})),
	});
	const command = JSON.stringify({ command: s.code });
	block(
		2,
		{ type: 'server_tool_use', id: 'srvtoolu_code', name: 'bash_code_execution', input: {} },
		input(command),
	);
	block(3, {
		type: 'bash_code_execution_tool_result',
		tool_use_id: 'srvtoolu_code',
		content: {
			type: 'bash_code_execution_result',
			stdout: s.output,
			stderr: '',
			return_code: 0,
			content: [],
		},
	});
	const cite = (x: { title: string; url: string }) => ({
		type: 'citations_delta',
		citation: {
			type: 'web_search_result_location',
			url: x.url,
			title: x.title,
			encrypted_index: 'ei',
			cited_text: 'q',
		},
	});
	block(4, { type: 'text', text: '', citations: null }, [
		...s.sources.slice(0, 2).map(cite),
		{ type: 'text_delta', text: s.text },
	]);
	emit('message_delta', {
		delta: { stop_reason: 'end_turn', stop_sequence: null },
		usage: { output_tokens: 20, server_tool_use: { web_search_requests: 1 } },
	});
	emit('message_stop');
	return out;
}

/** Gemini: `executableCode` / `codeExecutionResult` parts and the candidate's `groundingMetadata`. */
export function geminiServerTools(s: ServerToolScript, model = 'gemini-2.5-flash'): SseEvent[] {
	const chunk = (parts: unknown[], extra: Record<string, unknown> = {}): SseEvent => ({
		data: { candidates: [{ content: { role: 'model', parts }, index: 0, ...extra }], modelVersion: model },
	});
	const chunks = s.sources.map((x) => ({ web: { uri: x.url, title: x.title } }));
	return [
		chunk([{ executableCode: { language: 'PYTHON', code: s.code } }]),
		chunk([{ codeExecutionResult: { outcome: 'OUTCOME_OK', output: s.output } }]),
		chunk([{ text: s.text }]),
		chunk([{ text: '' }], {
			finishReason: 'STOP',
			groundingMetadata: {
				webSearchQueries: [s.query],
				groundingChunks: chunks,
				groundingSupports: [
					{
						segment: { startIndex: 0, endIndex: 4, text: s.text.slice(0, 4) },
						groundingChunkIndices: [1, 0],
					},
				],
			},
		}),
		{
			data: {
				candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, index: 0, finishReason: 'STOP' }],
				usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 20, totalTokenCount: 120 },
				modelVersion: model,
			},
		},
	];
}
