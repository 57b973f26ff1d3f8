import { promptContext, userMessage } from '../context/promptContext.js';
import type { AnswerRecord } from './answers.js';
import type { AgentSpec } from './types.js';
import type { ChatMessage } from '../providers/spec/model.js';
import type { Overlay } from '../workspace/types.js';
import type { AgentHost } from './agentHost.js';
import * as prompts from './prompts.js';
import { cacheKeyOf } from './cacheKey.js';
import { ResilientCaller } from './resilientCaller.js';
import { budgetedCalls, runToolCalls } from './toolRunner.js';

export interface PresentationInput {
	readonly agent: AgentSpec;
	/** The presenter's anonymous id, or undefined for a single agent (no team answers). */
	readonly anonId: string | undefined;
	readonly answers: readonly AnswerRecord[];
	readonly voteReasons: readonly { readonly label: string; readonly reason: string }[];
	/** Starts from the winner's latest answer: its edits become the change set unless it changes them. */
	readonly overlay: Overlay;
}

export type PresentationResult =
	{ readonly kind: 'presented'; readonly text: string } | { readonly kind: 'stopped' };

/**
 * The final presentation: the winner (or a single agent) answers with the write tools and no
 * workflow tools. The text of its last response is the final answer.
 */
export async function runPresentation(
	input: PresentationInput,
	host: AgentHost,
	signal: AbortSignal,
): Promise<PresentationResult> {
	const { agent } = input;
	const caller = new ResilientCaller(agent, 'presentation', host, signal);
	const context = promptContext(host.attachments, agent.model);
	const first =
		input.anonId === undefined
			? prompts.singleAgentUserMessage(host.question, host.history, context, host.restartFeedback)
			: prompts.presentationUserMessage({
					question: host.question,
					history: host.history,
					answers: input.answers,
					ownAnonId: input.anonId,
					voteReasons: input.voteReasons,
					context,
					feedback: host.restartFeedback,
				});
	const messages: ChatMessage[] = [userMessage(first, context)];
	const toolbox = host.createToolbox(agent.id, input.overlay, new Map(), true);
	const texts: string[] = [];
	let toolCalls = 0;
	for (;;) {
		const budgetLeft = host.settings.maxToolCallsPerTurn - toolCalls;
		const result = await caller.call({
			system: prompts.presentationSystemPrompt(agent.systemMessage),
			messages: [...messages],
			tools: budgetLeft > 0 ? toolbox.definitions : [],
			temperature: agent.temperature,
			maxOutputTokens: agent.maxOutputTokens,
			providerOptions: agent.providerOptions,
			stablePrefixMessages: 1,
			cacheKey: cacheKeyOf(host.runId, agent.id),
			overlay: input.overlay,
		});
		if (result === 'stopped') return { kind: 'stopped' };
		if (result === 'restart') continue;
		if (result.text.trim()) texts.push(result.text.trim());
		if (result.toolCalls.length === 0) {
			return { kind: 'presented', text: result.text.trim() || texts.join('\n\n') };
		}
		messages.push({
			role: 'assistant',
			content: result.text,
			toolCalls: result.toolCalls,
			providerData: result.providerData,
		});
		const run = {
			agentId: agent.id,
			phase: 'presentation' as const,
			toolbox,
			signal,
			emit: host.emit.bind(host),
		};
		messages.push(...(await runToolCalls(result.toolCalls, run, Math.max(0, budgetLeft))));
		toolCalls += budgetedCalls(result.toolCalls);
	}
}
