import { promptContext, userMessage } from '../context/promptContext.js';
import type { ChatRequest } from '../providers/spec/model.js';
import type { Toolbox } from '../tools/types.js';
import type { Overlay } from '../workspace/types.js';
import type { AnswerRecord } from './answers.js';
import * as prompts from './prompts.js';
import { cacheKeyOf } from './cacheKey.js';
import type { ModelCallResult } from './modelCall.js';
import { ToolLoopTurn, type ToolLoopOutcome } from './toolLoopTurn.js';
import type { TurnContext } from './turn.js';
import type { AgentSpec } from './types.js';

export interface PresentationInput {
	readonly agent: AgentSpec;
	/** The presenter's anonymous id, or undefined for a single agent (no team answers). */
	readonly anonId: string | undefined;
	readonly answers: readonly AnswerRecord[];
	readonly voteReasons: readonly { readonly label: string; readonly reason: string }[];
	/** The winner's unmet criteria (`unmetCriteriaBlock`); absent when none or no checklist. */
	readonly unmet?: string;
	/** Starts from the winner's latest answer: its edits become the change set unless it changes them. */
	readonly overlay: Overlay;
	/** The presenter's write tools over `overlay`. */
	readonly toolbox: Toolbox;
}

/**
 * The final presentation: the winner (or a single agent) answers with the write tools and no
 * workflow tools. It ends in the text of its last response, the final answer.
 */
export class PresentationTurn extends ToolLoopTurn<string> {
	private readonly texts: string[] = [];

	constructor(
		private readonly input: PresentationInput,
		context: TurnContext,
		signal: AbortSignal,
	) {
		const { agent } = input;
		const prompt = promptContext(context, agent.model);
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
						...(input.unmet ? { unmet: input.unmet } : {}),
						context: prompt,
						feedback: restartFeedback,
					});
		super(agent, input.toolbox, context, signal, userMessage(first, prompt));
	}

	protected settle(result: ModelCallResult): ToolLoopOutcome<string> {
		if (result.text.trim()) this.texts.push(result.text.trim());
		if (result.toolCalls.length > 0) return { toolCalls: result.toolCalls };
		return { done: result.text.trim() || this.texts.join('\n\n') };
	}

	protected request(withTools: boolean): ChatRequest {
		const { agent, toolbox, overlay } = this.input;
		return {
			system: prompts.presentationSystemPrompt(agent.systemMessage),
			messages: [...this.messages],
			tools: withTools ? toolbox.definitions : [],
			temperature: agent.temperature,
			maxOutputTokens: agent.maxOutputTokens,
			providerOptions: agent.providerOptions,
			stablePrefixMessages: 1,
			cacheKey: cacheKeyOf(this.context.runId, agent.id),
			overlay,
		};
	}
}
