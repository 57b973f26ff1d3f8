import type { PromptMessage, PromptSegment, PromptView, SseEvent, Turn, WireProtocol } from '../types.js';
import { argumentText, asArray, asRecord, nextId, pieces, segmentsOf, textOf } from './split.js';

const errorTypes: Record<number, string> = {
	400: 'invalid_request_error',
	401: 'authentication_error',
	403: 'permission_error',
	404: 'not_found_error',
	413: 'request_too_large',
	429: 'rate_limit_error',
	500: 'api_error',
	529: 'overloaded_error',
};

/** Anthropic Messages: `POST /v1/messages`, named SSE events from `message_start` to `message_stop`. */
export const anthropicWire: WireProtocol = {
	name: 'anthropic',
	preambleEvents: 2,
	basePath: '',
	matches: (method, path) => method === 'POST' && path === '/v1/messages',
	modelOf: (_path, body) => String(asRecord(body)['model'] ?? 'unknown'),
	encodeTurn,
	readPrompt,
	promptSegments,
	errorBody: (status, message) => ({
		type: 'error',
		error: { type: errorTypes[status] ?? 'api_error', message },
	}),
};

function encodeTurn(turn: Turn, model: string): SseEvent[] {
	const events: SseEvent[] = [];
	const emit = (type: string, fields: Record<string, unknown> = {}) =>
		events.push({ event: type, data: { type, ...fields } });
	const usage = turn.usage ?? { input: 10, output: 5 };
	const cached = usage.cachedInput ?? 0;
	const written = usage.cacheWrite ?? 0;
	emit('message_start', {
		message: {
			id: nextId('msg'),
			type: 'message',
			role: 'assistant',
			model,
			content: [],
			stop_reason: null,
			stop_sequence: null,
			usage: {
				input_tokens: usage.input - cached - written,
				cache_read_input_tokens: cached,
				cache_creation_input_tokens: written,
				output_tokens: 1,
			},
		},
	});
	emit('ping');
	let index = 0;
	const thinking = pieces(turn.reasoning, 3);
	if (thinking.length) {
		emit('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } });
		for (const piece of thinking) {
			emit('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: piece } });
		}
		emit('content_block_delta', {
			index,
			delta: { type: 'signature_delta', signature: `sig_${thinking.join('').length}` },
		});
		emit('content_block_stop', { index });
		index += 1;
	}
	const text = pieces(turn.text, turn.textChunks ?? 3);
	if (text.length) {
		emit('content_block_start', { index, content_block: { type: 'text', text: '' } });
		for (const piece of text) {
			emit('content_block_delta', { index, delta: { type: 'text_delta', text: piece } });
		}
		emit('content_block_stop', { index });
		index += 1;
	}
	for (const call of turn.toolCalls ?? []) {
		emit('content_block_start', {
			index,
			content_block: { type: 'tool_use', id: call.id ?? nextId('toolu'), name: call.name, input: {} },
		});
		for (const piece of pieces(argumentText(call), call.chunks ?? 4)) {
			emit('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: piece } });
		}
		emit('content_block_stop', { index });
		index += 1;
	}
	const stop = turn.finish === 'length' ? 'max_tokens' : turn.toolCalls?.length ? 'tool_use' : 'end_turn';
	emit('message_delta', {
		delta: { stop_reason: stop, stop_sequence: null },
		usage: { output_tokens: usage.output },
	});
	emit('message_stop');
	return events;
}

function readPrompt(body: unknown, model: string): PromptView {
	const request = asRecord(body);
	const texts: string[] = [];
	const messages: PromptMessage[] = [];
	const callNames = new Map<unknown, string>();
	let lastToolResult: string | undefined;
	for (const message of asArray(request['messages']).map(asRecord)) {
		lastToolResult = undefined;
		const role = message['role'] === 'assistant' ? 'assistant' : 'user';
		const content = message['content'];
		if (typeof content === 'string') {
			texts.push(content);
			messages.push({ role, text: content });
			continue;
		}
		for (const block of asArray(content).map(asRecord)) {
			if (block['type'] === 'text') {
				const text = String(block['text'] ?? '');
				texts.push(text);
				messages.push({ role, text });
			}
			if (block['type'] === 'tool_use') callNames.set(block['id'], String(block['name']));
			if (block['type'] === 'tool_result') {
				lastToolResult = textOf(block['content'] ?? '');
				texts.push(lastToolResult);
				messages.push({
					role: 'tool',
					text: lastToolResult,
					toolName: callNames.get(block['tool_use_id']) ?? '',
				});
			}
		}
	}
	const tools = asArray(request['tools'])
		.map(asRecord)
		.map((tool) => ({ name: String(tool['name']), parameters: asRecord(tool['input_schema']) }));
	return { model, system: textOf(request['system'] ?? ''), texts, tools, lastToolResult, messages };
}

/** Tools, then system blocks, then each message's content blocks: the order Anthropic caches in. */
function promptSegments(body: unknown): PromptSegment[] {
	const request = asRecord(body);
	const system = request['system'];
	const blocks = asArray(request['messages']).flatMap((message) => {
		const { role, content } = asRecord(message);
		return typeof content === 'string'
			? [{ role, type: 'text', text: content }]
			: asArray(content).map((b) => ({ role, ...asRecord(b) }));
	});
	return segmentsOf([
		...asArray(request['tools']),
		...(typeof system === 'string' ? [system] : asArray(system)),
		...blocks,
	]);
}
