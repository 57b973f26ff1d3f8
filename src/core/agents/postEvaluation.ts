/**
 * Post-evaluation (`max_orchestration_restarts`, docs/protocol.md rule 9): the winner, in a fresh chat,
 * checks its presented answer with the read tools over the presentation's overlay (so it reads the files
 * as the answer proposes them: nothing is written yet, and a restart has nothing to undo) and calls
 * `submit` or `restart_orchestration`. No call, a failure or the presentation timeout leaves the
 * answer standing (MassGen's auto-submit).
 */
import type { ChatRequest, ToolCall, ToolDefinition } from '../providers/spec/model.js';
import type { Toolbox } from '../tools/types.js';
import type { AgentSpec } from './types.js';
import type { Overlay } from '../workspace/types.js';
import type { FileChange } from '../../contract/fileChange.js';
import { cacheKeyOf } from './cacheKey.js';
import { restartToolName, submitToolName } from '../workflow/markers.js';
import { evaluationSystemPrompt, evaluationUserMessage } from './evaluationPrompts.js';
import type { ModelCallResult } from './modelCall.js';
import { ToolLoopTurn, type ToolLoopOutcome } from './toolLoopTurn.js';
import type { TurnContext } from './turn.js';

export type EvaluationVerdict =
	| { readonly kind: 'submitted' }
	| { readonly kind: 'restart'; readonly reason: string; readonly instructions: string }
	/** No verdict: the answer stands. */
	| { readonly kind: 'auto'; readonly why: string }
	| { readonly kind: 'stopped' };

export interface EvaluationInput {
	readonly agent: AgentSpec;
	readonly finalAnswer: string;
	readonly changes: readonly FileChange[];
	/** The presentation's overlay: the files as the answer proposes them (read only). */
	readonly overlay: Overlay;
	/** The read tools over `overlay`. */
	readonly reader: Toolbox;
}

export const evaluationTools: readonly ToolDefinition[] = [
	{
		name: submitToolName,
		description: 'Confirm that the final answer fully and correctly addresses the ORIGINAL MESSAGE.',
		parameters: {
			type: 'object',
			properties: { confirmed: { type: 'boolean', enum: [true] } },
			required: ['confirmed'],
			additionalProperties: false,
		},
	},
	{
		name: restartToolName,
		description: 'The final answer is incomplete or wrong: start coordination again with these reasons.',
		parameters: {
			type: 'object',
			properties: {
				reason: { type: 'string', description: 'What is missing or wrong.' },
				instructions: { type: 'string', description: 'What the team should do differently.' },
			},
			required: ['reason', 'instructions'],
			additionalProperties: false,
		},
	},
];

/**
 * The evaluation's chat: it ends in a verdict (`stopped` only when the run was cancelled: a failed
 * call or the timeout leaves the answer standing).
 */
export class EvaluationTurn extends ToolLoopTurn<EvaluationVerdict> {
	constructor(
		private readonly input: EvaluationInput,
		context: TurnContext,
		signal: AbortSignal,
	) {
		const { question, instructions } = context;
		const first = evaluationUserMessage(question, input.finalAnswer, input.changes, instructions);
		super(input.agent, input.reader, context, signal, { role: 'user', content: first });
	}

	protected settle(result: ModelCallResult): ToolLoopOutcome<EvaluationVerdict> {
		const others = result.toolCalls.filter((call) => !isVerdictCall(call));
		const verdict =
			verdictOf(result.toolCalls) ??
			(others.length === 0 ? ({ kind: 'auto', why: 'no verdict call' } as const) : undefined);
		return verdict === undefined ? { toolCalls: others } : { done: verdict };
	}

	protected request(withTools: boolean): ChatRequest {
		const { agent, reader, overlay } = this.input;
		return {
			system: evaluationSystemPrompt(agent.systemMessage),
			messages: [...this.messages],
			tools: [...evaluationTools, ...(withTools ? reader.definitions : [])],
			temperature: agent.temperature,
			maxOutputTokens: agent.maxOutputTokens,
			providerOptions: agent.providerOptions,
			stablePrefixMessages: 1,
			cacheKey: cacheKeyOf(this.context.runId, agent.id),
			overlay,
		};
	}
}

function isVerdictCall(call: ToolCall): boolean {
	return call.name === submitToolName || call.name === restartToolName;
}

/** The first well-formed verdict call; a restart without a reason counts as none (the answer stands). */
function verdictOf(calls: readonly ToolCall[]): EvaluationVerdict | undefined {
	for (const call of calls) {
		if (call.name === submitToolName) return { kind: 'submitted' };
		if (call.name !== restartToolName) continue;
		const { reason, instructions } = call.arguments as { reason?: unknown; instructions?: unknown };
		if (typeof reason === 'string' && reason.trim() !== '') {
			return {
				kind: 'restart',
				reason: reason.trim(),
				instructions: typeof instructions === 'string' ? instructions.trim() : '',
			};
		}
		return { kind: 'auto', why: 'restart_orchestration without a reason' };
	}
	return undefined;
}
