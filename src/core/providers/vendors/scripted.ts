import {
	answerIdsShown,
	newAnswerToolName,
	restartToolName,
	submitToolName,
	voteToolName,
} from '../../workflow/markers.js';
import type { BackendSettings } from '../spec/backendSettings.js';
import type { ChatModel, ChatRequest } from '../spec/model.js';
import {
	scriptSchema,
	type Script,
	type ScriptEdit,
	type ScriptStep,
	type ScriptToolCall,
} from '../spec/scriptedSchema.js';
import { ScriptedModel, type ScriptedReply } from './scriptedModel.js';

/** Builds the model of a `type: scripted` backend from its declarative script (validated by the config). */
export function createScriptedModel(settings: BackendSettings): ChatModel {
	const script = scriptSchema.parse(settings.options['script']);
	const state = { decisions: 0, evaluations: 0 };
	return new ScriptedModel((request) => replyFor(script, request, state), {
		modelId: settings.model,
		latencyMs: script.latency_ms,
		chunks: script.chunks,
		usage: { inputTokens: script.usage.input, outputTokens: script.usage.output },
	});
}

/**
 * Coordination calls are told apart from the presentation by the offered tools; a call whose
 * last message is a tool result continues the current step (tool calls and edits first, then
 * the decision).
 * Every other coordination call moves to the next step; the last step repeats.
 */
function replyFor(script: Script, request: ChatRequest, state: ScriptState): ScriptedReply {
	const coordinating = request.tools.some((tool) => tool.name === newAnswerToolName);
	const continuing = request.messages.at(-1)?.role === 'tool';
	if (request.tools.some((tool) => tool.name === submitToolName)) {
		return evaluationReply(script, continuing, state);
	}
	if (!coordinating) {
		const { presentation } = script;
		if (presentation.fail) return { fail: presentation.fail && toFault(presentation.fail) };
		if (!continuing && presentation.edits?.length) return { toolCalls: presentation.edits.map(editCall) };
		return { text: presentation.text ?? '' };
	}
	if (!continuing) state.decisions++;
	const step = script.coordination[Math.min(state.decisions - 1, script.coordination.length - 1)]!;
	if (step.fail) return { fail: toFault(step.fail) };
	const calls = [...(step.tool_calls ?? []).map(toolCall), ...(step.edits ?? []).map(editCall)];
	if (!continuing && calls.length > 0) return { text: step.text, toolCalls: calls };
	return {
		text: continuing ? undefined : step.text,
		reasoning: step.reasoning,
		toolCalls: [decision(step, request)],
	};
}

interface ScriptState {
	decisions: number;
	evaluations: number;
}

/** Post-evaluation: the attempt's step (tool calls first), then its verdict. */
function evaluationReply(script: Script, continuing: boolean, state: ScriptState): ScriptedReply {
	if (!continuing) state.evaluations++;
	const steps = script.evaluation;
	const step = steps.length
		? steps[Math.min(state.evaluations - 1, steps.length - 1)]!
		: { submit: true as const };
	if (!continuing && step.tool_calls?.length) {
		return { text: step.text, toolCalls: step.tool_calls.map(toolCall) };
	}
	if (step.restart) {
		return { text: step.text, toolCalls: [{ name: restartToolName, arguments: { ...step.restart } }] };
	}
	if (step.submit) {
		return { text: step.text, toolCalls: [{ name: submitToolName, arguments: { confirmed: true } }] };
	}
	return { text: step.text ?? 'Looks fine.' };
}

function decision(step: ScriptStep, request: ChatRequest) {
	const options = votableIds(request);
	if (step.vote && options.length > 0) {
		const target = step.vote === 'first' ? options[0] : step.vote === 'last' ? options.at(-1) : step.vote;
		return {
			name: voteToolName,
			arguments: { agent_id: target, reason: step.reason ?? 'Best answer so far.' },
		};
	}
	return { name: newAnswerToolName, arguments: { content: step.answer ?? step.text ?? 'An answer.' } };
}

/**
 * The ids a vote can name: those in `vote`'s enum whose answers the conversation shows (the enum
 * lists every agent of the run, answered or not), in enum order.
 */
function votableIds(request: ChatRequest): string[] {
	const parameters = request.tools.find((tool) => tool.name === voteToolName)?.parameters;
	const properties = parameters?.['properties'] as Record<string, { enum?: string[] }> | undefined;
	const shown = new Set(answerIdsShown(request.messages.map((message) => message.content)));
	return (properties?.['agent_id']?.enum ?? []).filter((id) => shown.has(id));
}

function toolCall(call: ScriptToolCall) {
	return { name: call.name, arguments: call.arguments ?? {} };
}

function editCall(edit: ScriptEdit) {
	return edit.delete
		? { name: 'delete_file', arguments: { path: edit.path } }
		: { name: 'write_file', arguments: { path: edit.path, content: edit.content ?? '' } };
}

function toFault(fault: NonNullable<ScriptStep['fail']>): NonNullable<ScriptedReply['fail']> {
	return {
		kind: fault.kind,
		status: fault.status,
		retryAfterMs: fault.retry_after_ms,
		message: fault.message,
	};
}
