import type { PromptMessage, PromptSegment, PromptView, SseEvent, Turn, WireProtocol } from '../types.js';
import { argumentText, asArray, asRecord, nextId, pieces, segmentsOf, textOf } from './split.js';

/** OpenAI Responses API: `POST /v1/responses`, typed SSE events with sequence numbers. */
export const responsesWire: WireProtocol = {
	name: 'responses',
	preambleEvents: 2,
	basePath: '/v1',
	matches: (method, path) => method === 'POST' && path === '/v1/responses',
	modelOf: (_path, body) => String(asRecord(body)['model'] ?? 'unknown'),
	encodeTurn,
	readPrompt,
	promptSegments,
	errorBody: (status, message) => ({
		error: {
			message,
			type: status === 429 ? 'rate_limit_exceeded' : status >= 500 ? 'server_error' : 'invalid_request_error',
			code: null,
			param: null,
		},
	}),
};

function encodeTurn(turn: Turn, model: string): SseEvent[] {
	const events: SseEvent[] = [];
	let seq = 0;
	const emit = (type: string, fields: Record<string, unknown>) =>
		events.push({ event: type, data: { type, sequence_number: seq++, ...fields } });
	const responseId = nextId('resp');
	const base = {
		id: responseId,
		object: 'response',
		created_at: Math.floor(Date.now() / 1000),
		model,
		output: [] as unknown[],
	};
	emit('response.created', { response: { ...base, status: 'in_progress' } });
	emit('response.in_progress', { response: { ...base, status: 'in_progress' } });
	const output: unknown[] = [];
	let index = 0;

	const reasoning = pieces(turn.reasoning, 3);
	if (reasoning.length) {
		const id = nextId('rs');
		const output_index = index++;
		emit('response.output_item.added', { output_index, item: { type: 'reasoning', id, summary: [] } });
		emit('response.reasoning_summary_part.added', {
			item_id: id,
			output_index,
			summary_index: 0,
			part: { type: 'summary_text', text: '' },
		});
		for (const delta of reasoning) {
			emit('response.reasoning_summary_text.delta', { item_id: id, output_index, summary_index: 0, delta });
		}
		const text = reasoning.join('');
		emit('response.reasoning_summary_text.done', { item_id: id, output_index, summary_index: 0, text });
		emit('response.reasoning_summary_part.done', {
			item_id: id,
			output_index,
			summary_index: 0,
			part: { type: 'summary_text', text },
		});
		const item = {
			type: 'reasoning',
			id,
			summary: [{ type: 'summary_text', text }],
			encrypted_content: `enc_${id}`,
		};
		emit('response.output_item.done', { output_index, item });
		output.push(item);
	}

	const text = pieces(turn.text, turn.textChunks ?? 3);
	if (text.length) {
		const id = nextId('msg');
		const output_index = index++;
		emit('response.output_item.added', {
			output_index,
			item: { type: 'message', id, role: 'assistant', status: 'in_progress', content: [] },
		});
		emit('response.content_part.added', {
			item_id: id,
			output_index,
			content_index: 0,
			part: { type: 'output_text', text: '', annotations: [] },
		});
		for (const delta of text) {
			emit('response.output_text.delta', {
				item_id: id,
				output_index,
				content_index: 0,
				delta,
				logprobs: [],
			});
		}
		const full = text.join('');
		emit('response.output_text.done', {
			item_id: id,
			output_index,
			content_index: 0,
			text: full,
			logprobs: [],
		});
		const part = { type: 'output_text', text: full, annotations: [] };
		emit('response.content_part.done', { item_id: id, output_index, content_index: 0, part });
		const item = { type: 'message', id, role: 'assistant', status: 'completed', content: [part] };
		emit('response.output_item.done', { output_index, item });
		output.push(item);
	}

	for (const call of turn.toolCalls ?? []) {
		const id = nextId('fc');
		const callId = call.id ?? nextId('call');
		const output_index = index++;
		const args = argumentText(call);
		emit('response.output_item.added', {
			output_index,
			item: {
				type: 'function_call',
				id,
				call_id: callId,
				name: call.name,
				arguments: '',
				status: 'in_progress',
			},
		});
		for (const delta of pieces(args, call.chunks ?? 4)) {
			emit('response.function_call_arguments.delta', { item_id: id, output_index, delta });
		}
		emit('response.function_call_arguments.done', {
			item_id: id,
			output_index,
			name: call.name,
			arguments: args,
		});
		const item = {
			type: 'function_call',
			id,
			call_id: callId,
			name: call.name,
			...(call.namespace === undefined ? {} : { namespace: call.namespace }),
			arguments: args,
			status: 'completed',
		};
		emit('response.output_item.done', { output_index, item });
		output.push(item);
	}

	const usage = turn.usage ?? { input: 10, output: 5 };
	const final = {
		...base,
		output,
		status: turn.finish === 'length' ? 'incomplete' : 'completed',
		incomplete_details: turn.finish === 'length' ? { reason: 'max_output_tokens' } : null,
		usage: {
			input_tokens: usage.input,
			input_tokens_details: { cached_tokens: usage.cachedInput ?? 0 },
			output_tokens: usage.output,
			output_tokens_details: { reasoning_tokens: usage.reasoning ?? 0 },
			total_tokens: usage.input + usage.output,
		},
	};
	emit(turn.finish === 'length' ? 'response.incomplete' : 'response.completed', { response: final });
	return events;
}

function readPrompt(body: unknown, model: string): PromptView {
	const request = asRecord(body);
	const input = request['input'];
	const items = typeof input === 'string' ? [{ role: 'user', content: input }] : asArray(input).map(asRecord);
	const texts: string[] = [];
	const messages: PromptMessage[] = [];
	const callNames = new Map<unknown, string>();
	let lastToolResult: string | undefined;
	for (const item of items) {
		lastToolResult = undefined;
		if (item['type'] === 'function_call') callNames.set(item['call_id'], String(item['name']));
		if (item['type'] === 'function_call_output') {
			lastToolResult = textOf(item['output']);
			texts.push(lastToolResult);
			messages.push({ role: 'tool', text: lastToolResult, toolName: callNames.get(item['call_id']) ?? '' });
		} else if (item['role'] !== undefined) {
			const text = textOf(item['content']);
			texts.push(text);
			messages.push({ role: item['role'] === 'assistant' ? 'assistant' : 'user', text });
		}
	}
	const tools = asArray(request['tools'])
		.map(asRecord)
		.filter((tool) => tool['type'] === 'function')
		.map((tool) => ({ name: String(tool['name']), parameters: asRecord(tool['parameters']) }));
	return { model, system: textOf(request['instructions'] ?? ''), texts, tools, lastToolResult, messages };
}

function promptSegments(body: unknown): PromptSegment[] {
	const request = asRecord(body);
	const input = request['input'];
	return segmentsOf([
		...asArray(request['tools']),
		request['instructions'] ?? '',
		...(typeof input === 'string' ? [input] : asArray(input)),
	]);
}
