import type { PromptMessage, PromptSegment, PromptView, SseEvent, Turn, WireProtocol } from '../types.js';
import { argumentText, asArray, asRecord, nextId, pieces, segmentsOf, textOf } from './split.js';

const azurePath = /^\/openai\/deployments\/([^/]+)\/chat\/completions$/;

/** OpenAI Chat Completions: `POST /v1/chat/completions`, `data:` chunks ending with `[DONE]`. */
export const chatWire: WireProtocol = {
	name: 'chat',
	preambleEvents: 1,
	basePath: '/v1',
	// Azure OpenAI addresses the deployment in the path instead.
	matches: (method, path) => method === 'POST' && (path === '/v1/chat/completions' || azurePath.test(path)),
	modelOf: (path, body) => String(asRecord(body)['model'] ?? azurePath.exec(path)?.[1] ?? 'unknown'),
	encodeTurn,
	readPrompt,
	promptSegments,
	errorBody: (status, message) => ({
		error: {
			message,
			type: status === 429 ? 'rate_limit_exceeded' : status >= 500 ? 'server_error' : 'invalid_request_error',
			code: status === 401 ? 'invalid_api_key' : null,
			param: null,
		},
	}),
};

function encodeTurn(turn: Turn, model: string): SseEvent[] {
	const id = nextId('chatcmpl');
	const created = Math.floor(Date.now() / 1000);
	const chunk = (delta: Record<string, unknown>, finish: string | null = null): SseEvent => ({
		data: {
			id,
			object: 'chat.completion.chunk',
			created,
			model,
			choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
		},
	});
	const events: SseEvent[] = [chunk({ role: 'assistant', content: '' })];
	for (const piece of pieces(turn.reasoning, 3)) events.push(chunk({ reasoning_content: piece }));
	for (const piece of pieces(turn.text, turn.textChunks ?? 3)) events.push(chunk({ content: piece }));
	(turn.toolCalls ?? []).forEach((call, index) => {
		events.push(
			chunk({
				tool_calls: [
					{
						index,
						id: call.id ?? nextId('call'),
						type: 'function',
						function: { name: call.name, arguments: '' },
					},
				],
			}),
		);
		for (const piece of pieces(argumentText(call), call.chunks ?? 4)) {
			events.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
		}
	});
	const finish = turn.finish === 'length' ? 'length' : turn.toolCalls?.length ? 'tool_calls' : 'stop';
	events.push(chunk({}, finish));
	const usage = turn.usage ?? { input: 10, output: 5 };
	events.push({
		data: {
			id,
			object: 'chat.completion.chunk',
			created,
			model,
			choices: [],
			usage: {
				prompt_tokens: usage.input,
				completion_tokens: usage.output,
				total_tokens: usage.input + usage.output,
				prompt_tokens_details: { cached_tokens: usage.cachedInput ?? 0 },
				completion_tokens_details: { reasoning_tokens: usage.reasoning ?? 0 },
			},
		},
	});
	events.push({ data: '[DONE]' });
	return events;
}

function readPrompt(body: unknown, model: string): PromptView {
	const request = asRecord(body);
	let system = '';
	const texts: string[] = [];
	const messages: PromptMessage[] = [];
	const callNames = new Map<unknown, string>();
	let lastToolResult: string | undefined;
	for (const message of asArray(request['messages']).map(asRecord)) {
		const text = textOf(message['content'] ?? '');
		const role = message['role'];
		lastToolResult = role === 'tool' ? text : undefined;
		for (const call of asArray(message['tool_calls']).map(asRecord)) {
			callNames.set(call['id'], String(asRecord(call['function'])['name']));
		}
		if (role === 'system' || role === 'developer') system += text;
		else if (role === 'tool') {
			texts.push(text);
			messages.push({ role: 'tool', text, toolName: callNames.get(message['tool_call_id']) ?? '' });
		} else {
			texts.push(text);
			messages.push({ role: role === 'assistant' ? 'assistant' : 'user', text });
		}
	}
	const tools = asArray(request['tools'])
		.map((tool) => asRecord(asRecord(tool)['function']))
		.map((fn) => ({ name: String(fn['name']), parameters: asRecord(fn['parameters']) }));
	return { model, system, texts, tools, lastToolResult, messages };
}

function promptSegments(body: unknown): PromptSegment[] {
	const request = asRecord(body);
	return segmentsOf([...asArray(request['tools']), ...asArray(request['messages'])]);
}
