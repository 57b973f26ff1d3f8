/**
 * One line of the past-runs list (panel and `listRuns`), read back from a run directory.
 */
import type { PlanRunRecord } from './plan.js';
import type { RunStatus } from './runEvents.js';

export interface PastRunSummary {
	readonly runId: string;
	readonly question: string;
	/**
	 * `running` while a run without `result.json` is going on (its `running.json` names a live
	 * process: this window's or another's); `incomplete` when it left none (its process died).
	 */
	readonly status: RunStatus | 'running' | 'incomplete';
	/** ISO 8601, from the run id (UTC) or, for a foreign id, the directory's modification time. */
	readonly startedAt: string;
	readonly winner: { readonly agentId: string; readonly label: string } | null;
	/** The run's part in a plan (`planRunLabel` names it); absent otherwise. */
	readonly plan?: PlanRunRecord;
}
