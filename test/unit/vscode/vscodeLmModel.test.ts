import { describe, expect, it } from 'vitest';
import * as vscode from 'vscode';
import type { ChatRequest, ModelEvent } from '../../../src/core/providers/spec/model';
import { ProviderError } from '../../../src/core/providers/spec/providerError';
import { toProviderError } from '../../../src/vscode/lm/lmErrors';
import { toLmMessages, toLmTools } from '../../../src/vscode/lm/lmMessages';
import { toToolCall, VscodeLmModel } from '../../../src/vscode/lm/vscodeLmModel';

const request: ChatRequest = {
	system: 'You are agent1.',
	messages: [
		{ role: 'user', content: 'Question?' },
		{
			role: 'assistant',
			content: 'Let me look.',
			toolCalls: [
				{ id: 'c1', name: 'read_file', arguments: { path: 'a.ts' } },
				{ id: 'c2', name: 'list_directory', arguments: { path: '.' } },
			],
		},
		{ role: 'tool', toolCallId: 'c1', toolName: 'read_file', content: 'export const a = 1;' },
		{ role: 'tool', toolCallId: 'c2', toolName: 'list_directory', content: 'no such dir', isError: true },
		{ role: 'user', content: 'UPDATE: new answers.' },
	],
	tools: [
		{
			name: 'vote',
			description: 'Vote',
			parameters: { type: 'object', properties: { agent_id: { type: 'string' } } },
		},
	],
};

/** Readable form of the LM messages (role, then each part). */
function describeMessages(messages: vscode.LanguageModelChatMessage[]): unknown[] {
	return messages.map((m) => [
		m.role === vscode.LanguageModelChatMessageRole.User ? 'user' : 'assistant',
		...m.content.map((part) => {
			if (part instanceof vscode.LanguageModelTextPart) return `text:${part.value}`;
			if (part instanceof vscode.LanguageModelToolCallPart) {
				return `call:${part.callId}:${part.name}:${JSON.stringify(part.input)}`;
			}
			if (part instanceof vscode.LanguageModelToolResultPart) {
				return `result:${part.callId}:${(part.content as vscode.LanguageModelTextPart[]).map((c) => c.value).join('')}`;
			}
			return 'unknown';
		}),
	]);
}

type Part = vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart | { kind: 'data' };

/** A fake LanguageModelChat that streams `parts`, or fails as told; records what it was sent. */
function fakeChat(
	options: { parts?: Part[]; failSend?: unknown; failStream?: unknown; hang?: boolean } = {},
) {
	const sent: {
		messages: vscode.LanguageModelChatMessage[];
		options: vscode.LanguageModelChatRequestOptions | undefined;
		token: vscode.CancellationToken | undefined;
	}[] = [];
	const chat = {
		id: 'copilot-gpt-4o',
		family: 'gpt-4o',
		name: 'GPT-4o',
		vendor: 'copilot',
		version: '1',
		maxInputTokens: 64_000,
		async sendRequest(
			messages: vscode.LanguageModelChatMessage[],
			opts?: vscode.LanguageModelChatRequestOptions,
			token?: vscode.CancellationToken,
		) {
			sent.push({ messages, options: opts, token });
			if (options.failSend) throw options.failSend;
			return {
				text: (async function* () {})(),
				stream: (async function* () {
					for (const part of options.parts ?? []) yield part;
					if (options.failStream) throw options.failStream;
					if (options.hang) await new Promise(() => undefined);
				})(),
			};
		},
		async countTokens(text: string | vscode.LanguageModelChatMessage) {
			return typeof text === 'string' ? Math.ceil(text.length / 4) : 1;
		},
	};
	return { chat: chat as unknown as vscode.LanguageModelChat, sent };
}

async function collect(model: VscodeLmModel, signal = new AbortController().signal): Promise<ModelEvent[]> {
	const events: ModelEvent[] = [];
	for await (const event of model.stream(request, signal)) events.push(event);
	return events;
}

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
	try {
		await promise;
	} catch (error) {
		expect(ProviderError.is(error)).toBe(true);
		return error as ProviderError;
	}
	throw new Error('expected a failure');
}

describe('vscode_lm: request mapping', () => {
	it('puts the system prompt first, tool calls on the assistant, and consecutive tool results in one user message', () => {
		expect(describeMessages(toLmMessages(request))).toEqual([
			['user', 'text:You are agent1.', 'text:Question?'],
			[
				'assistant',
				'text:Let me look.',
				'call:c1:read_file:{"path":"a.ts"}',
				'call:c2:list_directory:{"path":"."}',
			],
			['user', 'result:c1:export const a = 1;', 'result:c2:Error: no such dir', 'text:UPDATE: new answers.'],
		]);
	});

	it('sends an assistant message with only tool calls without an empty text part', () => {
		const messages = toLmMessages({
			system: '',
			messages: [{ role: 'assistant', content: '', toolCalls: [{ id: 'x', name: 'vote', arguments: {} }] }],
			tools: [],
		});
		expect(describeMessages(messages)).toEqual([['assistant', 'call:x:vote:{}']]);
	});

	it("puts a user message's images after its text as LanguageModelDataPart.image parts (bytes and mime)", () => {
		const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
		const gif = Buffer.from('GIF89a-x');
		const [message] = toLmMessages({
			system: '',
			messages: [
				{
					role: 'user',
					content: 'What is shown?',
					images: [
						{ mediaType: 'image/png', base64: png.toString('base64') },
						{ mediaType: 'image/gif', base64: gif.toString('base64') },
					],
				},
			],
			tools: [],
		});
		const parts = message!.content.map((part) =>
			part instanceof vscode.LanguageModelDataPart
				? `${part.mimeType}:${Buffer.from(part.data).toString('hex')}`
				: (part as vscode.LanguageModelTextPart).value,
		);
		expect(parts).toEqual([
			'What is shown?',
			`image/png:${png.toString('hex')}`,
			`image/gif:${gif.toString('hex')}`,
		]);
	});

	it('declares image input only when VS Code listed the model with it', () => {
		expect(new VscodeLmModel('m').capabilities.images).toBe(false);
		expect(new VscodeLmModel('m', undefined, true).capabilities.images).toBe(true);
	});

	it('maps tools to LanguageModelChatTools with their JSON Schema', () => {
		expect(toLmTools(request.tools)).toEqual([
			{ name: 'vote', description: 'Vote', inputSchema: request.tools[0]!.parameters },
		]);
	});

	it('a tool call whose input is not an object becomes a parse error, not a crash', () => {
		expect(toToolCall(new vscode.LanguageModelToolCallPart('c', 'vote', { agent_id: 'agent1' }))).toEqual({
			id: 'c',
			name: 'vote',
			arguments: { agent_id: 'agent1' },
		});
		const bad = toToolCall(new vscode.LanguageModelToolCallPart('c', 'vote', ['x'] as unknown as object));
		expect(bad).toMatchObject({
			arguments: {},
			parseError: expect.stringContaining('not a JSON object'),
			rawArguments: '["x"]',
		});
	});
});

describe('vscode_lm: VscodeLmModel.stream', () => {
	it('streams text and tool calls as ModelEvents, estimates usage, finishes with tool-calls', async () => {
		const { chat, sent } = fakeChat({
			parts: [
				new vscode.LanguageModelTextPart('I will '),
				{ kind: 'data' },
				new vscode.LanguageModelTextPart('vote.'),
				new vscode.LanguageModelToolCallPart('t1', 'vote', { agent_id: 'agent2', reason: 'best' }),
			],
		});
		const events = await collect(new VscodeLmModel('gpt-4o', async () => chat));
		expect(events.filter((e) => e.type !== 'usage')).toEqual([
			{ type: 'text-delta', text: 'I will ' },
			{ type: 'text-delta', text: 'vote.' },
			{
				type: 'tool-call',
				call: { id: 't1', name: 'vote', arguments: { agent_id: 'agent2', reason: 'best' } },
			},
			{ type: 'finish', reason: 'tool-calls' },
		]);
		const usage = events.find((e) => e.type === 'usage');
		expect(usage).toMatchObject({
			type: 'usage',
			usage: { inputTokens: expect.any(Number), outputTokens: expect.any(Number) },
		});
		expect(sent).toHaveLength(1);
		expect(sent[0]!.options).toMatchObject({
			toolMode: vscode.LanguageModelChatToolMode.Auto,
			tools: [{ name: 'vote' }],
		});
		expect(sent[0]!.options?.justification).toMatch(/MassGen/);
		expect(sent[0]!.token?.isCancellationRequested).toBe(false);
	});

	it('finishes with stop when there was no tool call', async () => {
		const { chat } = fakeChat({ parts: [new vscode.LanguageModelTextPart('Done.')] });
		const events = await collect(new VscodeLmModel('gpt-4o', async () => chat));
		expect(events.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
	});

	it('no matching model is a non-retryable invalid-response error naming the model', async () => {
		const error = await failure(collect(new VscodeLmModel('gpt-9', async () => undefined)));
		expect(error).toMatchObject({ provider: 'vscode_lm', kind: 'invalid-response', retryable: false });
		expect(error.message).toMatch(/no VS Code language model matches 'gpt-9'/);
	});

	it('maps LanguageModelError codes: NoPermissions and Blocked → auth, NotFound → invalid-response, others → server', async () => {
		const cases: [unknown, string, boolean][] = [
			[vscode.LanguageModelError.NoPermissions('no'), 'auth', false],
			[vscode.LanguageModelError.Blocked('blocked'), 'auth', false],
			[vscode.LanguageModelError.NotFound('gone'), 'invalid-response', false],
			[new vscode.LanguageModelError('boom'), 'server', true],
			[new Error('socket hang up'), 'server', true],
		];
		for (const [thrown, kind, retryable] of cases) {
			const { chat } = fakeChat({ failSend: thrown });
			const error = await failure(collect(new VscodeLmModel('gpt-4o', async () => chat)));
			expect({ kind: error.kind, retryable: error.retryable }).toEqual({ kind, retryable });
			expect(error.cause).toBe(thrown);
		}
	});

	it('an error in the middle of the stream is a ProviderError too', async () => {
		const { chat } = fakeChat({
			parts: [new vscode.LanguageModelTextPart('partial')],
			failStream: vscode.LanguageModelError.Blocked(),
		});
		const error = await failure(collect(new VscodeLmModel('gpt-4o', async () => chat)));
		expect(error.kind).toBe('auth');
	});

	it('aborting the signal cancels the request token and ends a hanging stream with an aborted error', async () => {
		const { chat, sent } = fakeChat({ parts: [new vscode.LanguageModelTextPart('thinking')], hang: true });
		const controller = new AbortController();
		const model = new VscodeLmModel('gpt-4o', async () => chat);
		const events: ModelEvent[] = [];
		const run = (async () => {
			for await (const event of model.stream(request, controller.signal)) {
				events.push(event);
				controller.abort();
			}
		})();
		const error = await failure(run);
		expect(error.kind).toBe('aborted');
		expect(events).toEqual([{ type: 'text-delta', text: 'thinking' }]);
		expect(sent[0]!.token?.isCancellationRequested).toBe(true);
	});

	it("a plain object thrown (the workbench's event for an image it cannot decode) is described, not [object Object]", () => {
		const signal = new AbortController().signal;
		expect(toProviderError({ isTrusted: true }, signal, 'gpt-4o').message).toBe(
			'VS Code language model \'gpt-4o\': the workbench failed the request with an event ({"isTrusted":true}): an attached image it cannot decode fails so',
		);
		expect(toProviderError({ code: 7 }, signal, 'gpt-4o').message).toBe(
			'VS Code language model \'gpt-4o\': {"code":7}',
		);
	});

	it('a cancellation error from VS Code is aborted, whatever the signal says', () => {
		const error = toProviderError(new vscode.CancellationError(), new AbortController().signal, 'gpt-4o');
		expect(error.kind).toBe('aborted');
	});
});
