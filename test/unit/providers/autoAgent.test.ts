import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createModel } from '../../../src/core/providers/createModel.js';
import type { ChatMessage, ChatModel, ToolDefinition } from '../../../src/core/providers/spec/model.js';
import {
	startLoopbackProvider,
	type LoopbackProtocol,
	type LoopbackProvider,
} from '../../servers/loopbackProvider.js';
import { attempt, readFileTool, request, testKey } from './contract.js';

const newAnswer: ToolDefinition = {
	name: 'new_answer',
	description: 'Submit a new answer.',
	parameters: { type: 'object', properties: { content: { type: 'string' } }, required: ['content'] },
};
const vote = (ids: string[]): ToolDefinition => ({
	name: 'vote',
	description: 'Vote for the best answer.',
	parameters: {
		type: 'object',
		properties: { agent_id: { type: 'string', enum: ids }, reason: { type: 'string' } },
		required: ['agent_id', 'reason'],
	},
});

const setups: { protocol: LoopbackProtocol; type: string; model: string }[] = [
	{ protocol: 'responses', type: 'openai', model: 'gpt-5-mini' },
	{ protocol: 'chat', type: 'chatcompletion', model: 'local-model' },
	{ protocol: 'anthropic', type: 'claude', model: 'claude-haiku-4-5' },
	{ protocol: 'gemini', type: 'gemini', model: 'gemini-2.5-flash' },
];

describe.each(setups)('auto-agent over $protocol', ({ protocol, type, model: modelId }) => {
	let server: LoopbackProvider;
	let model: ChatModel;

	beforeAll(async () => {
		server = await startLoopbackProvider(protocol, { auto: true });
		// chatcompletion on a local URL runs without a key, as the CLI would configure it.
		model = createModel({
			type,
			model: modelId,
			apiKey: type === 'chatcompletion' ? undefined : testKey,
			baseUrl: server.baseUrl,
			options: {},
		});
	});
	afterAll(() => server.close());

	it('answers with new_answer when no answers exist yet', async () => {
		const { result } = await attempt(model, request({ tools: [readFileTool, newAnswer, vote([])] }));
		expect(result!.toolCalls).toHaveLength(1);
		expect(result!.toolCalls[0]!.name).toBe('new_answer');
		expect(result!.toolCalls[0]!.arguments['content']).toMatch(new RegExp(`${protocol} agent`));
		expect(result!.finishReason).toBe('tool-calls');
	});

	it('votes for the first enum id, with a reason, once answers exist', async () => {
		const prompt =
			'Question: add two numbers.\n<answer id="agent2">use +</answer>\n<answer id="agent1">use sum()</answer>';
		const { result } = await attempt(
			model,
			request({
				messages: [{ role: 'user', content: prompt }],
				tools: [newAnswer, vote(['agent2', 'agent1'])],
			}),
		);
		expect(result!.toolCalls.map((c) => c.name)).toEqual(['vote']);
		expect(result!.toolCalls[0]!.arguments).toMatchObject({ agent_id: 'agent2', reason: expect.any(String) });
	});

	it('answers instead when its vote came back as an error', async () => {
		const messages: ChatMessage[] = [
			{ role: 'user', content: '<answer id="agent1">x</answer>' },
			{
				role: 'assistant',
				content: '',
				toolCalls: [{ id: 'call_v', name: 'vote', arguments: { agent_id: 'agent1', reason: 'r' } }],
			},
			{
				role: 'tool',
				toolCallId: 'call_v',
				toolName: 'vote',
				content: 'Error: invalid vote, agent1 has no answer in your snapshot',
				isError: true,
			},
		];
		const { result } = await attempt(model, request({ messages, tools: [newAnswer, vote(['agent1'])] }));
		expect(result!.toolCalls.map((c) => c.name)).toEqual(['new_answer']);
	});

	it('presents plain text when no workflow tools are offered', async () => {
		const { result } = await attempt(
			model,
			request({ messages: [{ role: 'user', content: 'Present the final answer.' }], tools: [readFileTool] }),
		);
		expect(result!.toolCalls).toEqual([]);
		expect(result!.text).toContain(`presented by the ${protocol} agent`);
		expect(result!.finishReason).toBe('stop');
		expect(result!.usage?.inputTokens).toBeGreaterThan(0);
	});
});
