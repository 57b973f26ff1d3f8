import type { Phase, RunEventBody } from '../../contract/runEvents.js';
import type { ChatMessage, ToolCall } from '../providers/spec/model.js';
import type { Toolbox } from '../tools/types.js';
import type { ToolOutcome } from '../providers/spec/toolOutcome.js';

/** Caps what one tool result may add to a conversation and to an event. */
const maxResultChars = 100_000;

export interface ToolRun {
	readonly agentId: string;
	readonly phase: Phase;
	readonly toolbox: Toolbox;
	readonly signal: AbortSignal;
	readonly emit: (body: RunEventBody) => void;
}

/**
 * Executes a response's non-workflow tool calls in order and returns their tool messages.
 * `budget` is how many calls may still run; calls past it get an error result instead. A coding
 * agent's edits made in its folder are recorded whatever the budget (see `budgetedCalls`).
 */
export async function runToolCalls(
	calls: readonly ToolCall[],
	run: ToolRun,
	budget: number,
): Promise<ChatMessage[]> {
	const messages: ChatMessage[] = [];
	let budgeted = 0;
	for (const call of calls) {
		const allowed = call.madeInFolder === true || budgeted++ < budget;
		run.emit({
			type: 'tool-call',
			agentId: run.agentId,
			phase: run.phase,
			callId: call.id,
			name: call.name,
			args: call.arguments,
		});
		const outcome = await execute(call, run, allowed);
		const text =
			outcome.text.length > maxResultChars
				? `${outcome.text.slice(0, maxResultChars)}\n…(truncated)`
				: outcome.text;
		run.emit({
			type: 'tool-result',
			agentId: run.agentId,
			phase: run.phase,
			callId: call.id,
			name: call.name,
			isError: outcome.isError,
			text,
			...(outcome.planned ? { planned: true as const } : {}),
		});
		if (outcome.edit) {
			run.emit({ type: 'file-edit', agentId: run.agentId, phase: run.phase, ...outcome.edit });
		}
		messages.push({
			role: 'tool',
			toolCallId: call.id,
			toolName: call.name,
			content: text,
			isError: outcome.isError,
		});
	}
	return messages;
}

/** How many of these calls count against the turn's tool budget. */
export function budgetedCalls(calls: readonly ToolCall[]): number {
	return calls.filter((call) => call.madeInFolder !== true).length;
}

async function execute(call: ToolCall, run: ToolRun, allowed: boolean): Promise<ToolOutcome> {
	if (!allowed) return { text: `${call.name}: tool call limit for this turn reached.`, isError: true };
	if (call.parseError) {
		return { text: `${call.name}: invalid JSON arguments (${call.parseError}).`, isError: true };
	}
	if (!run.toolbox.has(call.name)) return { text: `Unknown tool '${call.name}'.`, isError: true };
	try {
		return await untilAborted(
			run.toolbox.execute(call.name, call.arguments, run.signal),
			call.name,
			run.signal,
		);
	} catch (error) {
		return { text: `${call.name} failed: ${(error as Error).message}`, isError: true };
	}
}

/**
 * The tool's outcome, or `cancelled` as soon as the run is: a tool that is slow to notice the
 * signal (an MCP server, a command, a long walk between checks) must not hold up a cancel or
 * a timeout. Its late result is dropped.
 */
function untilAborted(
	outcome: Promise<ToolOutcome>,
	name: string,
	signal: AbortSignal,
): Promise<ToolOutcome> {
	const cancelled: ToolOutcome = { text: `${name}: cancelled`, isError: true };
	if (signal.aborted) return Promise.resolve(cancelled);
	return new Promise((resolve, reject) => {
		const onAbort = () => resolve(cancelled);
		signal.addEventListener('abort', onAbort, { once: true });
		outcome.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
	});
}
