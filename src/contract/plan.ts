/**
 * A run's part in a voted plan (docs/plans.md): the run that made the plan, a step's run, or all
 * steps as one run. Shells send it on the run request; `result.json` keeps it; run lists name the
 * run by it (`planRunLabel`).
 */

/** How finely the team breaks the task down (MassGen's `--plan-depth`; `dynamic`: as the task needs). */
export type PlanDepth = 'shallow' | 'medium' | 'deep' | 'dynamic';

/** In order of detail; MassGen's default is `medium`. */
export const planDepths: readonly PlanDepth[] = ['shallow', 'medium', 'deep', 'dynamic'];

export const defaultPlanDepth: PlanDepth = 'medium';

export type PlanRunRecord =
	| { readonly kind: 'planning'; readonly planId: string; readonly depth: PlanDepth; readonly task: string }
	| {
			readonly kind: 'step';
			readonly planId: string;
			/** 1-based, in the plan document's order when the step started. */
			readonly step: number;
			readonly of: number;
			readonly title: string;
	  }
	| { readonly kind: 'all'; readonly planId: string; readonly of: number };

/** What run lists show for a plan's run. */
export function planRunLabel(record: PlanRunRecord): string {
	switch (record.kind) {
		case 'planning':
			return `Plan: ${record.task}`;
		case 'step':
			return `Plan step ${record.step} of ${record.of}: ${record.title}`;
		case 'all':
			return `Plan, all ${record.of} steps`;
	}
}
