/**
 * One run read back for a report (`massgen show`, the editor's Export Run): its result, the
 * agents' models from the first event, and the winner's diff. Everything comes from the run
 * directory, which is redacted as it is written.
 */
import { changeOutcome, type ChangeOutcome } from '../changes/acceptRecord.js';
import { readChangeLog } from '../runStore/changeLog.js';
import type { RunAgentInfo, SessionRecord } from '../../contract/runEvents.js';
import type { RunResult } from '../../contract/runResult.js';
import { readOwnRuns } from '../runStore/ownRuns.js';
import { readRunResult } from '../runStore/readResult.js';
import { readRunStart } from '../runStore/readRunEvents.js';
import { readRunPatch } from '../runStore/readPatch.js';
import { checkedRunDir, RunsDirError } from '../runStore/runsDirGuard.js';
import { SessionError } from './historyOf.js';
import { runCost } from './runCost.js';

export interface RunReport {
	readonly result: RunResult;
	readonly session: SessionRecord;
	readonly startedAt: string;
	/** From `run-start`; empty when the log's first line is unreadable. */
	readonly agents: readonly RunAgentInfo[];
	/** `changes.patch`; empty when the run proposed no changes. */
	readonly patch: string;
	readonly costUsd: number | null;
	readonly changes: ChangeOutcome;
	/** This machine made the run (`ownRuns.ts`); false = it came with the folder. */
	readonly madeHere: boolean;
}

/** Throws `SessionError` when the run is not there or its result cannot be read. */
export async function readRunReport(workspaceRoot: string, runId: string): Promise<RunReport> {
	// Neither the runs folder nor this run's may be a link: it would be read from elsewhere.
	const runDir = await checkedRunDir(workspaceRoot, runId).catch((error: unknown) => {
		throw RunsDirError.is(error) ? new SessionError(error.message) : error;
	});
	const read = await readRunResult(runDir, runId);
	if (!read.ok) throw new SessionError(`run ${runId}: ${read.reason}`);
	const { result, session, startedAt } = read;
	const patch = await readRunPatch(runDir);
	const log = await readChangeLog(runDir).catch(() => []);
	return {
		result,
		session,
		startedAt,
		agents: (await readRunStart(runDir))?.agents ?? [],
		patch,
		costUsd: runCost(result),
		changes: changeOutcome(log, result.changes.length),
		madeHere: (await readOwnRuns(workspaceRoot)).has(runId),
	};
}
