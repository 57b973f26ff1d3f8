/**
 * Post-evaluation (MassGen §1.10, `max_orchestration_restarts`): the winner, in a fresh chat, checks
 * its presented answer with the read tools over the presentation's overlay (so it reads the files
 * as the answer proposes them: nothing is written yet, and a restart has nothing to undo) and calls
 * `submit` or `restart_orchestration`. No call, a failure or the presentation timeout leaves the
 * answer standing (MassGen's auto-submit).
 */
import type { ChatMessage, ToolCall, ToolDefinition } from '../providers/spec/model.js';
import type { AgentSpec } from './types.js';
import type { FileChange, Overlay } from '../workspace/types.js';
import type { AgentHost } from './agentHost.js';
import { cacheKeyOf } from './cacheKey.js';
import { restartToolName, submitToolName } from '../workflow/markers.js';
import { evaluationSystemPrompt, evaluationUserMessage } from './evaluationPrompts.js';
import { ResilientCaller } from './resilientCaller.js';
import { budgetedCalls, runToolCalls } from './toolRunner.js';

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

export async function runEvaluation(
	input: EvaluationInput,
	host: AgentHost,
	signal: AbortSignal,
): Promise<EvaluationVerdict> {
	const { agent } = input;
	const caller = new ResilientCaller(agent, 'presentation', host, signal);
	const messages: ChatMessage[] = [
		{ role: 'user', content: evaluationUserMessage(host.question, input.finalAnswer, input.changes) },
	];
	const reader = host.createToolbox(agent.id, input.overlay, new Map(), false);
	let toolCalls = 0;
	for (;;) {
		const budgetLeft = host.settings.maxToolCallsPerTurn - toolCalls;
		const result = await caller.call({
			system: evaluationSystemPrompt(agent.systemMessage),
			messages: [...messages],
			tools: [...evaluationTools, ...(budgetLeft > 0 ? reader.definitions : [])],
			temperature: agent.temperature,
			maxOutputTokens: agent.maxOutputTokens,
			providerOptions: agent.providerOptions,
			stablePrefixMessages: 1,
			cacheKey: cacheKeyOf(host.runId, agent.id),
			overlay: input.overlay,
		});
		if (result === 'stopped') return signal.aborted ? { kind: 'stopped' } : { kind: 'auto', why: 'failed' };
		if (result === 'restart') continue;
		const verdict = verdictOf(result.toolCalls);
		if (verdict !== undefined) return verdict;
		const others = result.toolCalls.filter((call) => !isVerdictCall(call));
		if (others.length === 0) return { kind: 'auto', why: 'no verdict call' };
		messages.push({
			role: 'assistant',
			content: result.text,
			toolCalls: others,
			providerData: result.providerData,
		});
		const run = {
			agentId: agent.id,
			phase: 'presentation' as const,
			toolbox: reader,
			signal,
			emit: host.emit.bind(host),
		};
		messages.push(...(await runToolCalls(others, run, Math.max(0, budgetLeft))));
		toolCalls += budgetedCalls(others);
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
