/**
 * One line of the past-runs list (panel and `listRuns`), read back from a run directory.
 */
import type { RunStatus } from './runEvents.js';

export interface PastRunSummary {
	readonly runId: string;
	readonly question: string;
	/** `incomplete` when the run left no `result.json` (the process died mid-run). */
	readonly status: RunStatus | 'incomplete';
	/** ISO 8601, from the run id (UTC) or, for a foreign id, the directory's modification time. */
	readonly startedAt: string;
	readonly winner: { readonly agentId: string; readonly label: string } | null;
}
