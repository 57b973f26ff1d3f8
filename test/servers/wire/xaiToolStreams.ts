import type { SseEvent } from '../types.js';
import type { ServerToolScript } from './providerToolStreams.js';

/**
 * xAI's Responses API searching, in its own shapes where they differ from OpenAI's (after streams
 * xAI sent, as public SDK fixtures record them): the `web_search_call` arrives with an empty query
 * and its sources (URLs only, no `include` needed) on `done`; an `x_search_call` carries its searcher
 * and JSON arguments; `url_citation`s repeat the URL as title; usage counts the server-side tools.
 */
export function xaiServerTools(s: ServerToolScript, model = 'grok-4-fast'): SseEvent[] {
	let seq = 0;
	const out: SseEvent[] = [];
	const emit = (type: string, fields: Record<string, unknown>) =>
		out.push({ event: type, data: { type, sequence_number: seq++, ...fields } });
	const base = { id: 'resp_xai', object: 'response', created_at: 1, model, output: [], store: false };
	emit('response.created', { response: { ...base, status: 'in_progress' } });
	emit('response.in_progress', { response: { ...base, status: 'in_progress' } });
	const webId = 'ws_xai_call-0';
	const search = { id: webId, type: 'web_search_call', status: 'in_progress' };
	emit('response.output_item.added', {
		output_index: 0,
		item: { ...search, action: { type: 'search', query: '', sources: [] } },
	});
	for (const step of ['in_progress', 'searching', 'completed']) {
		emit(`response.web_search_call.${step}`, { output_index: 0, item_id: webId });
	}
	const action = {
		type: 'search',
		query: s.query,
		sources: s.sources.map((x) => ({ type: 'url', url: x.url })),
	};
	const webDone = { ...search, status: 'completed', action };
	emit('response.output_item.done', { output_index: 0, item: webDone });
	const xId = 'fc_xai_0';
	const xCall = {
		type: 'x_search_call',
		id: xId,
		call_id: '',
		name: 'x_keyword_search',
		status: 'in_progress',
	};
	emit('response.output_item.added', { output_index: 1, item: { ...xCall, arguments: '' } });
	for (const step of ['in_progress', 'searching', 'completed']) {
		emit(`response.x_search_call.${step}`, { output_index: 1, item_id: xId });
	}
	const xDone = { ...xCall, status: 'completed', arguments: JSON.stringify({ query: s.query, limit: 10 }) };
	emit('response.output_item.done', { output_index: 1, item: xDone });
	const messageId = 'msg_xai';
	const message = { type: 'message', id: messageId, role: 'assistant', status: 'in_progress', content: [] };
	emit('response.output_item.added', { output_index: 2, item: message });
	const where = { item_id: messageId, output_index: 2, content_index: 0 };
	emit('response.content_part.added', {
		...where,
		part: { type: 'output_text', text: '', logprobs: [], annotations: [] },
	});
	emit('response.output_text.delta', { ...where, delta: s.text, logprobs: [] });
	const annotations = s.sources.slice(0, 2).map((x) => ({
		type: 'url_citation',
		url: x.url,
		start_index: 0,
		end_index: 0,
		title: x.url,
	}));
	annotations.forEach((annotation, i) =>
		emit('response.output_text.annotation.added', { ...where, annotation_index: i, annotation }),
	);
	emit('response.output_text.done', { ...where, text: s.text, logprobs: [] });
	const part = { type: 'output_text', text: s.text, logprobs: [], annotations };
	emit('response.content_part.done', { ...where, part });
	const messageDone = { ...message, status: 'completed', content: [part] };
	emit('response.output_item.done', { output_index: 2, item: messageDone });
	const usage = {
		input_tokens: 1000,
		input_tokens_details: { cached_tokens: 0 },
		output_tokens: 40,
		output_tokens_details: { reasoning_tokens: 0 },
		total_tokens: 1040,
		num_sources_used: 0,
		num_server_side_tools_used: 2,
		server_side_tool_usage_details: { web_search_calls: 1, x_search_calls: 1, code_interpreter_calls: 0 },
		cost_in_usd_ticks: 105_000_000,
	};
	const output = [webDone, xDone, messageDone];
	emit('response.completed', { response: { ...base, output, status: 'completed', usage } });
	return out;
}
