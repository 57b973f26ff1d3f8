import { describe, expect, it } from 'vitest';
import type { RunEventBody } from '../../../src/contract/runEvents.js';
import {
	clipText,
	clipToolResults,
	messagesTokens,
	planCompaction,
	transcript,
} from '../../../src/core/agents/compaction.js';
import { ContextKeeper } from '../../../src/core/agents/contextKeeper.js';
import { noSteering } from '../../../src/core/agents/steering.js';
import {
	estimateMessageTokens,
	estimateRequestTokens,
	estimateTextTokens,
} from '../../../src/core/agents/tokenEstimate.js';
import type { TurnContext } from '../../../src/core/agents/turn.js';
import { defaultOrchestratorSettings } from '../../../src/core/orchestrator/types.js';
import type { ChatMessage, ChatRequest } from '../../../src/core/providers/spec/model.js';
import { ScriptedModel, type ScriptedHandler } from '../../../src/core/providers/vendors/scriptedModel.js';
import { ManualClock } from '../../support/manualClock.js';

const task: ChatMessage = { role: 'user', content: 'TASK: summarise the docs.' };
const update: ChatMessage = { role: 'user', content: 'UPDATE: agent2 answered "use a map".' };

/** A tool loop of `reads` file reads of `size` characters each, after the task. */
function readLoop(reads: number, size: number): ChatMessage[] {
	const messages: ChatMessage[] = [task];
	for (let i = 1; i <= reads; i++) {
		messages.push({
			role: 'assistant',
			content: `Reading part ${i}.`,
			toolCalls: [{ id: `c${i}`, name: 'read_file', arguments: { path: `part${i}.md` } }],
		});
		messages.push({
			role: 'tool',
			toolCallId: `c${i}`,
			toolName: 'read_file',
			content: `START-${i} ${'x'.repeat(size)} END-${i}`,
		});
		if (i === 2) messages.push(update);
	}
	return messages;
}

const request = (messages: readonly ChatMessage[]): ChatRequest => ({
	system: 'You are an agent.',
	messages,
	tools: [{ name: 'read_file', description: 'Read a file.', parameters: { type: 'object' } }],
});

function keeper(handler: ScriptedHandler, contextWindow: number | undefined, maxOutputTokens = 500) {
	const events: RunEventBody[] = [];
	const model = new ScriptedModel(handler, { modelId: 'small-model' });
	const context: TurnContext = {
		runId: 'run',
		question: 'q',
		history: [],
		attachments: [],
		restartFeedback: '',
		settings: defaultOrchestratorSettings,
		clock: new ManualClock(),
		emit: (body) => events.push(body),
		steering: noSteering,
	};
	const agent = { id: 'alice', model, maxOutputTokens, ...(contextWindow ? { contextWindow } : {}) };
	return {
		keeper: new ContextKeeper(agent, 'coordination', context, new AbortController().signal),
		events,
		model,
	};
}

const isUpdate = (message: ChatMessage) => message === update;

describe('token estimate', () => {
	it('counts UTF-8 bytes / 3: ASCII at 3 characters a token, a CJK character as one token', () => {
		expect(estimateTextTokens('a'.repeat(300))).toBe(100);
		// 3 bytes each: never fewer tokens than characters, as CJK tokenizers count about one each.
		expect(estimateTextTokens('日本語'.repeat(100))).toBe(300);
	});

	it('counts tool calls, echoed provider data, images and tool definitions', () => {
		const plain: ChatMessage = { role: 'assistant', content: 'ok' };
		const withCall: ChatMessage = {
			...plain,
			toolCalls: [{ id: '1', name: 'read_file', arguments: { path: 'a'.repeat(90) } }],
		};
		expect(estimateMessageTokens(withCall)).toBeGreaterThan(estimateMessageTokens(plain) + 30);
		const thinking: ChatMessage = { ...plain, providerData: { thinking: 'y'.repeat(300) } };
		expect(estimateMessageTokens(thinking)).toBeGreaterThan(estimateMessageTokens(plain) + 100);
		const image: ChatMessage = {
			role: 'user',
			content: 'see',
			images: [{ mediaType: 'image/png', base64: 'AAAA' }],
		};
		expect(estimateMessageTokens(image)).toBeGreaterThanOrEqual(2_000);
		const bare = request([task]);
		expect(estimateRequestTokens(bare)).toBeGreaterThan(estimateRequestTokens({ ...bare, tools: [] }));
	});
});

describe('truncation', () => {
	it('clipText keeps the start and the end and says how much was cut', () => {
		const text = `HEAD${'m'.repeat(10_000)}TAIL`;
		const clipped = clipText(text, 500);
		expect(clipped.startsWith('HEAD')).toBe(true);
		expect(clipped.endsWith('TAIL')).toBe(true);
		expect(clipped).toContain('[9508 characters cut to fit the context window]');
		expect(clipped.length).toBeLessThanOrEqual(500);
		expect(clipText('short', 500)).toBe('short');
	});

	it('the plan keeps the task first, the UPDATE pinned, the last response with its results as the tail', () => {
		const messages = readLoop(4, 100);
		const plan = planCompaction(messages, isUpdate);
		expect(plan.first).toBe(task);
		expect(plan.pinned).toEqual([update]);
		expect(plan.tail.map((m) => m.role)).toEqual(['assistant', 'tool']);
		expect(plan.tail[1]!.content).toContain('START-4');
		expect(plan.middle).toHaveLength(6);
	});

	it('the transcript fits its budget, keeps each entry start, and is the same for the same input', () => {
		const middle = planCompaction(readLoop(6, 5_000), isUpdate).middle;
		const text = transcript(middle, 1_000);
		expect(estimateTextTokens(text)).toBeLessThanOrEqual(1_000);
		for (let i = 1; i <= 5; i++) expect(text).toContain(`START-${i}`);
		expect(text).toContain('called read_file {"path":"part1.md"}');
		expect(transcript(middle, 1_000)).toBe(text);
		// Multi-byte text is shrunk until it fits too.
		const wide: ChatMessage[] = [
			{ role: 'tool', toolCallId: '1', toolName: 'read_file', content: '語'.repeat(9_000) },
		];
		expect(estimateTextTokens(transcript(wide, 500))).toBeLessThanOrEqual(500);
	});

	it('clipToolResults brings a tail with a huge result under its budget and leaves the call whole', () => {
		const tail = planCompaction(readLoop(1, 60_000), isUpdate).tail;
		const clipped = clipToolResults(tail, 2_000);
		expect(messagesTokens(clipped)).toBeLessThanOrEqual(2_000);
		expect(clipped[0]).toBe(tail[0]);
		expect(clipped[1]!.content).toContain('START-1');
		expect(clipped[1]!.content).toContain('END-1');
	});
});

describe('ContextKeeper', () => {
	it('compacts a request over the window with a summary by the agent’s model: task, summary, UPDATE, tail', async () => {
		const {
			keeper: k,
			events,
			model,
		} = keeper(
			() => ({ text: 'SUMMARY of parts 1-5', usage: { inputTokens: 900, outputTokens: 40 } }),
			6_000,
		);
		const messages = readLoop(6, 3_000);
		const long = request(messages);
		expect(k.overflows(long)).toBe(true);
		const step = await k.compactInto(messages, long, isUpdate);
		expect(step).toEqual({
			kind: 'called',
			report: { completed: true, usage: { inputTokens: 900, outputTokens: 40 } },
		});
		// One summary call, without tools, over the older messages (not the tail).
		expect(model.requests).toHaveLength(1);
		expect(model.requests[0]!.tools).toEqual([]);
		expect(model.requests[0]!.messages[0]!.content).toContain('START-1');
		expect(model.requests[0]!.messages[0]!.content).not.toContain('START-6');
		expect(messages[0]).toBe(task);
		expect(messages[1]!.content).toContain('SUMMARY of parts 1-5');
		expect(messages[2]).toBe(update);
		expect(messages.slice(3).map((m) => m.role)).toEqual(['assistant', 'tool']);
		expect(messages[4]!.content).toContain('START-6');
		expect(k.overflows(request(messages))).toBe(false);
		const compacted = events.find((e) => e.type === 'compacted');
		expect(compacted).toMatchObject({
			agentId: 'alice',
			phase: 'coordination',
			how: 'summary',
			messagesSummarised: 10,
		});
		expect((compacted as { tokensAfter: number }).tokensAfter).toBeLessThan(
			(compacted as { tokensBefore: number }).tokensBefore,
		);
	});

	it('falls back to deterministic truncation when the summary call fails', async () => {
		const { keeper: k, events } = keeper(() => ({ fail: { kind: 'server', message: 'down' } }), 8_000);
		const messages = readLoop(6, 3_000);
		const step = await k.compactInto(messages, request(messages), isUpdate);
		expect(step).toEqual({ kind: 'called', report: { completed: false } });
		expect(messages[1]!.content).toContain('were shortened to fit the context window');
		expect(messages[1]!.content).toContain('START-1');
		expect(messages[1]!.content).toContain('characters cut to fit the context window');
		expect(events.find((e) => e.type === 'compacted')).toMatchObject({ how: 'truncation' });
		expect(k.overflows(request(messages))).toBe(false);
	});

	it('after a provider rejection (window unknown) it compacts below the rejected size', async () => {
		const { keeper: k } = keeper(() => ({ text: 'SUMMARY' }), undefined);
		const messages = readLoop(6, 3_000);
		const rejected = request([...messages]);
		const size = k.estimate(rejected);
		expect(k.overflows(rejected)).toBe(false);
		expect(k.rejected(rejected)).toBe(true);
		expect(k.overflows(rejected)).toBe(true);
		await k.compactInto(messages, rejected, isUpdate);
		expect(k.estimate(request(messages))).toBeLessThan(size * 0.6);
		expect(k.overflows(request(messages))).toBe(false);
	});

	it('gives up after repeated rejections, and when the task alone does not fit', async () => {
		const { keeper: k, model } = keeper(() => ({ text: 'SUMMARY' }), 1_000, 100);
		const big: ChatMessage = { role: 'user', content: 'q'.repeat(6_000) };
		const messages = [big];
		const step = await k.compactInto(messages, request(messages), () => false);
		expect(step.kind).toBe('called');
		const failure = step.kind === 'called' ? step.failure : undefined;
		expect(failure).toMatchObject({ kind: 'context-length' });
		expect(failure!.message).toMatch(
			/^the task does not fit small-model's context window even after compaction: about \d+ tokens, at most about 900 fit \(context window 1000, less the output reserve\)$/,
		);
		// Nothing was worth a summary call; the conversation is left as it was.
		expect(model.requests).toHaveLength(0);
		expect(messages).toEqual([big]);
		const small = request([task]);
		expect([k.rejected(small), k.rejected(small), k.rejected(small), k.rejected(small)]).toEqual([
			true,
			true,
			true,
			false,
		]);
	});

	it('calibrates the estimate up when a provider reports more prompt tokens than estimated', () => {
		const { keeper: k } = keeper(() => ({}), undefined);
		const r = request(readLoop(1, 300));
		const before = k.estimate(r);
		k.completed(r, { inputTokens: before * 2, outputTokens: 1 });
		expect(k.estimate(r)).toBeGreaterThanOrEqual(before * 2 - 1);
		k.completed(r, { inputTokens: 1, outputTokens: 1 });
		expect(k.estimate(r)).toBeGreaterThanOrEqual(before * 2 - 1);
		// A count far off the estimate (a server's fixed usage) raises it three-fold at most.
		k.completed(r, { inputTokens: before * 100, outputTokens: 1 });
		expect(k.estimate(r)).toBeLessThanOrEqual(before * 3 + 1);
	});
});
