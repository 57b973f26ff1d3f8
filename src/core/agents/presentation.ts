import { promptContext, userMessage } from '../context/promptContext.js';
import type { ChatMessage, ChatRequest, ToolCall } from '../providers/spec/model.js';
import type { Toolbox } from '../tools/types.js';
import type { Overlay } from '../workspace/types.js';
import type { AnswerRecord } from './answers.js';
import * as prompts from './prompts.js';
import { cacheKeyOf } from './cacheKey.js';
import { ModelCaller } from './modelCaller.js';
import { budgetedCalls, runToolCalls, type ToolRun } from './toolRunner.js';
import type { AgentTurn, TurnContext, TurnStep } from './turn.js';
import type { AgentSpec } from './types.js';

export interface PresentationInput {
	readonly agent: AgentSpec;
	/** The presenter's anonymous id, or undefined for a single agent (no team answers). */
	readonly anonId: string | undefined;
	readonly answers: readonly AnswerRecord[];
	readonly voteReasons: readonly { readonly label: string; readonly reason: string }[];
	/** Starts from the winner's latest answer: its edits become the change set unless it changes them. */
	readonly overlay: Overlay;
	/** The presenter's write tools over `overlay`. */
	readonly toolbox: Toolbox;
}

/**
 * The final presentation: the winner (or a single agent) answers with the write tools and no
 * workflow tools. It ends in the text of its last response, the final answer.
 */
export class PresentationTurn implements AgentTurn<string> {
	private readonly caller: ModelCaller;
	private readonly messages: ChatMessage[];
	private readonly texts: string[] = [];
	private toolCalls = 0;
	/** The last response's tool calls, until they ran. */
	private pendingTools: readonly ToolCall[] | undefined;
	private retry: ChatRequest | undefined;
	private ended: string | undefined;

	constructor(
		private readonly input: PresentationInput,
		private readonly context: TurnContext,
		private readonly signal: AbortSignal,
	) {
		const { agent } = input;
		this.caller = new ModelCaller(agent, 'presentation', context, signal);
		const prompt = promptContext(context.attachments, agent.model);
		const { question, history, restartFeedback } = context;
		const first =
			input.anonId === undefined
				? prompts.singleAgentUserMessage(question, history, prompt, restartFeedback)
				: prompts.presentationUserMessage({
						question,
						history,
						answers: input.answers,
						ownAnonId: input.anonId,
						voteReasons: input.voteReasons,
						context: prompt,
						feedback: restartFeedback,
					});
		this.messages = [userMessage(first, prompt)];
	}

	async next(): Promise<TurnStep<string>> {
		if (this.ended !== undefined) return { kind: 'done', value: this.ended };
		if (this.pendingTools) return { kind: 'tools', calls: this.pendingTools };
		if (this.signal.aborted) return { kind: 'stopped' };
		const request = this.retry ?? this.request();
		this.retry = undefined;
		const outcome = await this.caller.call(request);
		if (outcome.kind === 'stopped') return { kind: 'stopped', report: outcome.report };
		if (outcome.kind === 'failed') {
			this.retry = request;
			return { kind: 'called', report: outcome.report, failure: outcome.error };
		}
		if (outcome.kind === 'completed') {
			const { result } = outcome;
			if (result.text.trim()) this.texts.push(result.text.trim());
			if (result.toolCalls.length === 0) {
				this.ended = result.text.trim() || this.texts.join('\n\n');
			} else {
				this.messages.push({
					role: 'assistant',
					content: result.text,
					toolCalls: result.toolCalls,
					providerData: result.providerData,
				});
				this.pendingTools = result.toolCalls;
			}
		}
		return { kind: 'called', report: outcome.report };
	}

	async runTools(calls: readonly ToolCall[]): Promise<void> {
		this.pendingTools = undefined;
		const run: ToolRun = {
			agentId: this.input.agent.id,
			phase: 'presentation',
			toolbox: this.input.toolbox,
			signal: this.signal,
			emit: (body) => this.context.emit(body),
		};
		const budgetLeft = this.context.settings.maxToolCallsPerTurn - this.toolCalls;
		this.messages.push(...(await runToolCalls(calls, run, Math.max(0, budgetLeft))));
		this.toolCalls += budgetedCalls(calls);
	}

	private request(): ChatRequest {
		const { agent, toolbox, overlay } = this.input;
		const budgetLeft = this.context.settings.maxToolCallsPerTurn - this.toolCalls;
		return {
			system: prompts.presentationSystemPrompt(agent.systemMessage),
			messages: [...this.messages],
			tools: budgetLeft > 0 ? toolbox.definitions : [],
			temperature: agent.temperature,
			maxOutputTokens: agent.maxOutputTokens,
			providerOptions: agent.providerOptions,
			stablePrefixMessages: 1,
			cacheKey: cacheKeyOf(this.context.runId, agent.id),
			overlay,
		};
	}
}
