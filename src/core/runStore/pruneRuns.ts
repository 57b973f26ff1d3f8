/**
 * Retention of run directories (`massgen.runs.keep`): a pure plan of what to delete, then the delete.
 */
import { rm } from 'node:fs/promises';
import { runDirOf } from '../../contract/runLayout.js';
import { isSafeRunId } from '../../contract/runId.js';
import type { ProcessTable } from '../util/processLiveness.js';
import { liveRuns } from './runningMarker.js';
import { assertRunsDirInside } from './runsDirGuard.js';

/** How many runs and how old: a run goes when it is beyond `count` (newest first) or older than `days`. */
export interface RetentionPolicy {
	readonly count?: number;
	readonly days?: number;
}

/** What the plan needs to know of one run. */
export interface PruneCandidate {
	readonly runId: string;
	readonly sessionId: string;
	/** The turn this run follows (its session's chain), null for a first turn. */
	readonly parentRunId: string | null;
	/** ISO 8601. */
	readonly startedAt: string;
	/** Its changes wait for Accept or Reject (or were only partly accepted): never deleted. */
	readonly pending: boolean;
}

export interface PruneGuards {
	/** Sessions the user pinned: none of their runs is deleted. */
	readonly pinnedSessions: ReadonlySet<string>;
	/** Runs that must stay whatever their age (the active run, the one whose changes the editor shows). */
	readonly keepRunIds?: ReadonlySet<string>;
	readonly now: Date;
}

const dayMs = 24 * 60 * 60 * 1000;

/**
 * The run ids to delete, oldest first. Runs that stay keep their whole chain of parent turns too,
 * so a kept follow-up never loses the history it continues. An empty policy deletes nothing.
 */
export function planPrune(
	runs: readonly PruneCandidate[],
	policy: RetentionPolicy,
	guards: PruneGuards,
): string[] {
	const { count, days } = policy;
	if (count === undefined && days === undefined) return [];
	const newestFirst = [...runs].sort(
		(a, b) => b.startedAt.localeCompare(a.startedAt) || b.runId.localeCompare(a.runId),
	);
	const cutoff = days === undefined ? undefined : guards.now.getTime() - days * dayMs;
	const kept = new Set<string>();
	newestFirst.forEach((run, index) => {
		const beyondCount = count !== undefined && index >= count;
		const tooOld = cutoff !== undefined && Date.parse(run.startedAt) < cutoff;
		const guarded =
			run.pending || guards.pinnedSessions.has(run.sessionId) || guards.keepRunIds?.has(run.runId) === true;
		if (guarded || !(beyondCount || tooOld)) kept.add(run.runId);
	});
	const byId = new Map(runs.map((run) => [run.runId, run]));
	for (const runId of [...kept]) {
		let parent = byId.get(runId)?.parentRunId ?? null;
		while (parent !== null && !kept.has(parent)) {
			kept.add(parent);
			parent = byId.get(parent)?.parentRunId ?? null;
		}
	}
	return newestFirst
		.filter((run) => !kept.has(run.runId))
		.map((run) => run.runId)
		.reverse();
}

/**
 * Deletes these run directories under `<workspace>/.massgen/runs/`; returns the ids deleted. A run
 * going on now (its running marker names a live process: `runningMarker.ts`, another `massgen
 * run`, `massgen mcp` or editor window included) and every turn such a run continues are left
 * alone whatever the caller planned: the plan may be older than a run another process started.
 */
export async function deleteRuns(
	workspaceRoot: string,
	runIds: readonly string[],
	options: { readonly processes?: ProcessTable } = {},
): Promise<string[]> {
	const deleted: string[] = [];
	// Never through a linked `.massgen` into someone else's folder (a linked run folder itself goes
	// as a link: rm does not follow it).
	await assertRunsDirInside(workspaceRoot);
	const busy = await busyRuns(workspaceRoot, options.processes);
	for (const runId of runIds) {
		// A run id names one directory component: nothing outside the runs directory can be reached.
		if (!isSafeRunId(runId)) throw new Error(`not a run id: ${JSON.stringify(runId)}`);
		if (busy.has(runId)) continue;
		await rm(runDirOf(workspaceRoot, runId), { recursive: true, force: true });
		deleted.push(runId);
	}
	return deleted;
}

/** The live runs and the chains of turns they continue (a follow-up must not lose its parent meanwhile). */
async function busyRuns(workspaceRoot: string, processes?: ProcessTable): Promise<Set<string>> {
	const live = await liveRuns(workspaceRoot, processes);
	const busy = new Set(live.keys());
	if (live.size === 0) return busy;
	// The result reader pulls in zod: the editor's activation bundle holds this module, not it (lazyActivation.test).
	const { readRunResult } = await import('./readResult.js');
	for (const first of live.values()) {
		for (let parent = first; parent !== null && !busy.has(parent);) {
			busy.add(parent);
			const read = await readRunResult(runDirOf(workspaceRoot, parent), parent);
			parent = read.ok ? read.session.parentRunId : null;
		}
	}
	return busy;
}
