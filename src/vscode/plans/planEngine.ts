/**
 * What Execute Plan loads at its first use, not at activation: the plan store and document
 * parser, the run store's change record (zod) behind `stepDecision`. `PlanExecutions` and
 * `executePlan` reach it only through `import()` (test/unit/vscode/lazyActivation.test.ts).
 */
export { allStepsRequest, lastPlanRun, nextStep, stepRequest } from '../../core/plans/planRequests.js';
export { listPlans, plansDir } from '../../core/plans/planStore.js';
export { markPlanStep, planFileOf, readPlan } from './planText.js';
export { stepDecision } from './stepDecision.js';
