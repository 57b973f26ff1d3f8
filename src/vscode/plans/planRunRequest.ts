import type * as vscode from 'vscode';
import { type PlanDepth, planDepths } from '../../contract/plan.js';
import type { AttachmentRequest } from '../../core/context/attachment.js';
import { planQuestion } from '../../core/plans/planPrompt.js';
import type { RunRequest } from '../run/runTypes.js';

/** A task to plan: what Plan with Team, the ask box's Plan toggle and `@massgen /plan` start. */
export interface PlanAsk {
	readonly task: string;
	readonly depth: PlanDepth;
	readonly folder?: vscode.Uri;
	readonly attachments?: readonly AttachmentRequest[];
}

/**
 * The run that makes a plan: kind `plan` (the run controller makes it read-only: no write tools,
 * no commands, no change set), asked in the plan format at the chosen depth, recorded as the
 * `planning` run of a plan named after the run (the core sets the id: no shell knows the run's id
 * before it starts).
 */
export function planRunRequest(ask: PlanAsk): RunRequest {
	return {
		question: planQuestion(ask.task, ask.depth),
		kind: 'plan',
		plan: { kind: 'planning', planId: '', depth: ask.depth, task: ask.task },
		...(ask.folder ? { folder: ask.folder } : {}),
		...(ask.attachments?.length ? { attachments: ask.attachments } : {}),
	};
}

/** The task and depth given to "MassGen: Plan with Team": a string, or `{ task, depth? }` (a keybinding's args). */
export function planArgument(arg: unknown): { task?: string; depth?: PlanDepth } {
	if (typeof arg === 'string') return arg.trim() ? { task: arg.trim() } : {};
	if (typeof arg !== 'object' || arg === null) return {};
	const { task, depth } = arg as { task?: unknown; depth?: unknown };
	return {
		...(typeof task === 'string' && task.trim() ? { task: task.trim() } : {}),
		...(planDepths.includes(depth as PlanDepth) ? { depth: depth as PlanDepth } : {}),
	};
}
