import type { PromptMessage, PromptSegment, PromptView, SseEvent, Turn, WireProtocol } from '../types.js';
import { asArray, asRecord, nextId, pieces, segmentsOf, textOf } from './split.js';

const statusNames: Record<number, string> = {
	400: 'INVALID_ARGUMENT',
	401: 'UNAUTHENTICATED',
	403: 'PERMISSION_DENIED',
	404: 'NOT_FOUND',
	429: 'RESOURCE_EXHAUSTED',
	500: 'INTERNAL',
	503: 'UNAVAILABLE',
};
const route = /^\/v1beta\/models\/([^/:]+):streamGenerateContent$/;

/** Gemini API: `POST /v1beta/models/{model}:streamGenerateContent?alt=sse`, `data:` chunks of GenerateContentResponse. */
export const geminiWire: WireProtocol = {
	name: 'gemini',
	preambleEvents: 0,
	basePath: '',
	matches: (method, path) => method === 'POST' && route.test(path),
	modelOf: (path) => decodeURIComponent(route.exec(path)?.[1] ?? 'unknown'),
	encodeTurn,
	readPrompt,
	promptSegments,
	errorBody: (status, message) => ({
		error: { code: status, message, status: statusNames[status] ?? 'UNKNOWN' },
	}),
};

function encodeTurn(turn: Turn, model: string): SseEvent[] {
	const responseId = nextId('gem');
	const chunk = (parts: unknown[], extra: Record<string, unknown> = {}): SseEvent => ({
		data: {
			candidates: [{ content: { role: 'model', parts }, index: 0, ...extra }],
			modelVersion: model,
			responseId,
		},
	});
	const events: SseEvent[] = [];
	for (const piece of pieces(turn.reasoning, 3)) events.push(chunk([{ text: piece, thought: true }]));
	for (const piece of pieces(turn.text, turn.textChunks ?? 3)) events.push(chunk([{ text: piece }]));
	for (const call of turn.toolCalls ?? []) {
		const functionCall = {
			...(call.id ? { id: call.id } : {}),
			name: call.name,
			args: call.raw !== undefined ? call.raw : (call.arguments ?? {}),
		};
		events.push(chunk([{ functionCall, ...(call.signature ? { thoughtSignature: call.signature } : {}) }]));
	}
	const usage = turn.usage ?? { input: 10, output: 5 };
	const thoughts = usage.reasoning ?? 0;
	events.push({
		data: {
			candidates: [
				{
					content: { role: 'model', parts: [{ text: '' }] },
					finishReason: turn.finish === 'length' ? 'MAX_TOKENS' : 'STOP',
					index: 0,
				},
			],
			usageMetadata: {
				promptTokenCount: usage.input,
				candidatesTokenCount: usage.output - thoughts,
				...(thoughts ? { thoughtsTokenCount: thoughts } : {}),
				...(usage.cachedInput ? { cachedContentTokenCount: usage.cachedInput } : {}),
				totalTokenCount: usage.input + usage.output,
			},
			modelVersion: model,
			responseId,
		},
	});
	return events;
}

function readPrompt(body: unknown, model: string): PromptView {
	const request = asRecord(body);
	const texts: string[] = [];
	const messages: PromptMessage[] = [];
	let lastToolResult: string | undefined;
	for (const content of asArray(request['contents']).map(asRecord)) {
		lastToolResult = undefined;
		const role = content['role'] === 'model' ? 'assistant' : 'user';
		for (const part of asArray(content['parts']).map(asRecord)) {
			if (typeof part['text'] === 'string' && !part['thought']) {
				texts.push(part['text']);
				messages.push({ role, text: part['text'] });
			}
			const functionResponse = asRecord(part['functionResponse']);
			const response = functionResponse['response'];
			if (response !== undefined) {
				const record = asRecord(response);
				lastToolResult = textOf(record['output'] ?? record['error'] ?? JSON.stringify(response));
				texts.push(lastToolResult);
				messages.push({
					role: 'tool',
					text: lastToolResult,
					toolName: String(functionResponse['name'] ?? ''),
				});
			}
		}
	}
	const tools = asArray(request['tools']).flatMap((tool) =>
		asArray(asRecord(tool)['functionDeclarations'])
			.map(asRecord)
			.map((fn) => ({
				name: String(fn['name']),
				parameters: asRecord(fn['parametersJsonSchema'] ?? fn['parameters']),
			})),
	);
	const system = asArray(asRecord(request['systemInstruction'])['parts'])
		.map((part) => String(asRecord(part)['text'] ?? ''))
		.join('');
	return { model, system, texts, tools, lastToolResult, messages };
}

function promptSegments(body: unknown): PromptSegment[] {
	const request = asRecord(body);
	const declarations = asArray(request['tools']).flatMap((tool) =>
		asArray(asRecord(tool)['functionDeclarations']),
	);
	return segmentsOf([...declarations, request['systemInstruction'] ?? '', ...asArray(request['contents'])]);
}
