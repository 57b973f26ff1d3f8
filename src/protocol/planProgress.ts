/**
 * A plan's execution as the panel shows it (host → webview `plan-progress`): "Plan: step 2 of 5 —
 * <title>" and each step's state. Checked by `isPlanProgressView` in the webview, by hand rather
 * than with zod: the webview bundle never includes zod (`webviewMessageSchema.ts`), and the host is
 * the sender, so the check only keeps a malformed message from breaking the page.
 */

/** `running`: its run goes; `review`: its change set waits for the user; `stopped`: rejected, failed or cancelled. */
export type PlanStepState = 'todo' | 'running' | 'review' | 'done' | 'stopped';

export interface PlanStepProgress {
	/** 1-based, in the document's order when the execution last read it. */
	readonly index: number;
	readonly title: string;
	readonly state: PlanStepState;
	/** Why it stopped, or that it changed nothing (already in the display language). */
	readonly note?: string;
}

export interface PlanProgressView {
	readonly planId: string;
	/** The plan document's heading. */
	readonly title: string;
	/** The step going or waiting for review (1-based); null once the execution ended. */
	readonly current: number | null;
	readonly steps: readonly PlanStepProgress[];
	/** The runs of this execution: the panel shows the progress with any of them. */
	readonly runIds: readonly string[];
	/** All steps as one run (`current` is then the first step the run carries). */
	readonly allAtOnce: boolean;
}

const states: readonly string[] = ['todo', 'running', 'review', 'done', 'stopped'];
/** A plan the panel lists: more steps than this are not a plan a person reviews step by step. */
export const maxPlanSteps = 200;

function isStep(value: unknown): value is PlanStepProgress {
	if (typeof value !== 'object' || value === null) return false;
	const step = value as Record<string, unknown>;
	return (
		typeof step.index === 'number' &&
		typeof step.title === 'string' &&
		typeof step.state === 'string' &&
		states.includes(step.state) &&
		(step.note === undefined || typeof step.note === 'string')
	);
}

export function isPlanProgressView(value: unknown): value is PlanProgressView {
	if (typeof value !== 'object' || value === null) return false;
	const view = value as Record<string, unknown>;
	return (
		typeof view.planId === 'string' &&
		typeof view.title === 'string' &&
		(view.current === null || typeof view.current === 'number') &&
		typeof view.allAtOnce === 'boolean' &&
		Array.isArray(view.steps) &&
		view.steps.length <= maxPlanSteps &&
		view.steps.every(isStep) &&
		Array.isArray(view.runIds) &&
		view.runIds.every((id) => typeof id === 'string')
	);
}
