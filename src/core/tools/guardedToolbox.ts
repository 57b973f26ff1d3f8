/**
 * An agent's toolbox with tools beyond the workspace: the workspace tools (low risk: reads and
 * overlay edits, guarded by the path policy) plus extra tools (MCP, `run_command`) whose every
 * call passes the permission gate first. Every call, of either kind, is charged to the run budget.
 */
import type { Phase } from '../../contract/runEvents.js';
import type { PermissionGate } from '../permissions/permissionGate.js';
import type { PermissionRequest } from '../permissions/permissionEngine.js';
import type { ToolDefinition } from '../providers/spec/model.js';
import type { Overlay } from '../workspace/types.js';
import type { Toolbox } from './types.js';
import type { ToolOutcome } from '../providers/spec/toolOutcome.js';

export interface ExtraToolContext {
	readonly agentId: string;
	readonly overlay: Overlay;
	readonly phase: Phase;
	readonly signal: AbortSignal;
}

/** What the permission engine is asked about a call: everything but the agent and tool name. */
export type ExtraToolRequest = Pick<PermissionRequest, 'action' | 'target' | 'args'> &
	Partial<Pick<PermissionRequest, 'cwd' | 'hints'>>;

/** A tool outside the workspace. `describe` and `execute` must not throw. */
export interface ExtraTool {
	readonly definition: ToolDefinition;
	/** Only reads (an MCP tool its server marks `readOnlyHint`): a read-only role keeps it. */
	readonly readOnly?: boolean;
	/** Whether this call can change anything outside the agent's copy (planning mode holds those). */
	actsOutside(request: ExtraToolRequest): boolean;
	/** Why calls cannot go through now (e.g. the server crashed), or null. */
	unavailable(): string | null;
	/** The request the permission engine decides on, or an error message for bad arguments. */
	describe(
		args: Record<string, unknown>,
		context: ExtraToolContext,
	): Promise<ExtraToolRequest | { readonly error: string }>;
	execute(args: Record<string, unknown>, context: ExtraToolContext): Promise<ToolOutcome>;
}

export interface GuardedToolboxContext {
	readonly agentId: string;
	readonly overlay: Overlay;
	readonly phase: Phase;
	/** Planning mode in coordination: calls that act outside are described, not run. */
	readonly planning?: boolean;
}

export function createGuardedToolbox(
	workspace: Toolbox,
	extra: readonly ExtraTool[],
	gate: PermissionGate,
	context: GuardedToolboxContext,
): Toolbox {
	const byName = new Map(
		extra.filter((tool) => !workspace.has(tool.definition.name)).map((tool) => [tool.definition.name, tool]),
	);
	return {
		definitions: [...workspace.definitions, ...[...byName.values()].map((tool) => tool.definition)],
		has: (name) => workspace.has(name) || byName.has(name),
		async execute(name, args, signal): Promise<ToolOutcome> {
			const tool = byName.get(name);
			if (tool === undefined && !workspace.has(name)) return workspace.execute(name, args, signal);
			const charged = gate.charge(context.agentId, name);
			if (!charged.allowed) return { text: charged.message, isError: true };
			if (tool === undefined) return workspace.execute(name, args, signal);
			const toolContext: ExtraToolContext = { ...context, signal };
			const described = await tool.describe(args, toolContext);
			if ('error' in described) return { text: `${name}: ${described.error}`, isError: true };
			if (context.planning && tool.actsOutside(described)) {
				const text = `${name} was not run: planning mode. Describe this action in your answer as part of your plan; the agent that presents the final answer carries it out, with the user's approval.`;
				return { text, isError: false, planned: true };
			}
			const request: PermissionRequest = { agentId: context.agentId, tool: name, ...described };
			const unavailable = tool.unavailable();
			if (unavailable !== null) {
				gate.refuse(request, context.phase, 'unavailable', unavailable);
				return { text: `${name}: ${unavailable}`, isError: true };
			}
			const decision = await gate.authorize(request, context.phase, signal);
			if (!decision.allowed) return { text: decision.message, isError: true };
			if (signal.aborted) return { text: `${name}: cancelled`, isError: true };
			return tool.execute(args, toolContext);
		},
	};
}
