/**
 * One run read back for a report (`massgen show`, the editor's Export Run): its result, the
 * agents' models from the first event, and the winner's diff. Everything comes from the run
 * directory, which is redacted as it is written.
 */
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { changeOutcome, readChangeLog, type ChangeOutcome } from '../changes/acceptRecord.js';
import type { RunAgentInfo, SessionRecord } from '../../contract/runEvents.js';
import { readOwnRuns } from '../logs/ownRuns.js';
import { parseEventLine } from '../logs/readRunEvents.js';
import { isSafeRunId } from '../logs/runId.js';
import { runsDir } from '../logs/runLog.js';
import { assertRealFolder, assertRunsDirInside, RunsDirError } from '../logs/runsDirGuard.js';
import type { RunResult } from '../orchestrator/types.js';
import { openRegularFile, readRegularTextOrNull } from '../util/regularFile.js';
import { SessionError } from './historyOf.js';
import { readRunRecord, runCost } from './readRunRecord.js';

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

/** A change set's patch: the snapshot caps each file at 8 MiB; a larger patch is not shown. */
const maxPatchBytes = 64 * 1024 * 1024;

/** Throws `SessionError` when the run is not there or its result cannot be read. */
export async function readRunReport(workspaceRoot: string, runId: string): Promise<RunReport> {
	if (!isSafeRunId(runId)) throw new SessionError(`'${runId}' is not a run id`);
	const runDir = join(runsDir(workspaceRoot), runId);
	// Neither the runs folder nor this run's may be a link: it would be read from elsewhere.
	await assertRunsDirInside(workspaceRoot)
		.then(() => assertRealFolder(runDir))
		.catch((error: unknown) => {
			throw error instanceof RunsDirError ? new SessionError(error.message) : error;
		});
	const read = await readRunRecord(runDir, runId);
	if (!read.ok) throw new SessionError(`run ${runId}: ${read.reason}`);
	const { result, session, startedAt } = read;
	// The run folder is in the workspace: a repository may ship FIFOs there (never a blocking open).
	const patch = (await readRegularTextOrNull(join(runDir, 'changes.patch'), maxPatchBytes)) ?? '';
	const log = await readChangeLog(runDir).catch(() => []);
	return {
		result,
		session,
		startedAt,
		agents: await readAgents(runDir),
		patch,
		costUsd: runCost(result),
		changes: changeOutcome(log, result.changes.length),
		madeHere: (await readOwnRuns(workspaceRoot)).has(runId),
	};
}

/** Only the first line: the log of a long run is large. */
async function readAgents(runDir: string): Promise<RunAgentInfo[]> {
	const opened = await openRegularFile(join(runDir, 'events.jsonl')).catch(() => null);
	if (opened === null) return [];
	const stream = opened.handle.createReadStream({ encoding: 'utf8' });
	const lines = createInterface({ input: stream, crlfDelay: Infinity });
	try {
		for await (const line of lines) {
			const event = parseEventLine(line);
			return event?.type === 'run-start' && Array.isArray(event.agents) ? event.agents : [];
		}
		return [];
	} catch {
		return [];
	} finally {
		lines.close();
		stream.destroy();
	}
}
