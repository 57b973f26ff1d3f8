/**
 * One run directory read back as a turn (issue 13): `result.json` only, checked field by field.
 * A run without a readable result (still running, killed mid-run, corrupted) is not a turn.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunStatus, SessionRecord } from '../../contract/runEvents.js';
import { recordedStart, runIdDate } from '../logs/runId.js';
import type { RunResult } from '../orchestrator/types.js';
import { readRegularFile } from '../util/regularFile.js';

/** A result.json larger than this is not read (changes carry file texts; this bounds one read). */
export const maxResultBytes = 32 * 1024 * 1024;

const statuses: readonly string[] = ['completed', 'cancelled', 'timeout', 'failed'] satisfies RunStatus[];

export type RunRecordRead =
	| {
			readonly ok: true;
			readonly result: RunResult;
			readonly session: SessionRecord;
			readonly startedAt: string;
			/** The size of `result.json` read. */
			readonly bytes: number;
	  }
	| { readonly ok: false; readonly reason: string };

/**
 * Reads `<runDir>/result.json` if it is at most `maxBytes`; never throws. A result without a
 * session record is a one-turn session.
 */
export async function readRunRecord(
	runDir: string,
	runId: string,
	maxBytes: number = maxResultBytes,
): Promise<RunRecordRead> {
	const file = join(runDir, 'result.json');
	let text: string;
	try {
		const { mtime } = await stat(file);
		// Never a blocking open: the run folder is in the workspace, a repository may ship a FIFO there.
		const { bytes, size } = await readRegularFile(file, maxBytes);
		if (size > maxBytes) return { ok: false, reason: `result.json is too large (${size} bytes)` };
		text = bytes.toString('utf8');
		const result = parseResult(text, runId);
		if (typeof result === 'string') return { ok: false, reason: result };
		const duration = typeof result.durationMs === 'number' ? result.durationMs : 0;
		const startedAt = believedStart(result.startedAt, runId, mtime.getTime() - duration).toISOString();
		const session = result.session ?? { id: runId, parentRunId: null };
		return { ok: true, result, session, startedAt, bytes: size };
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === 'ENOENT') return { ok: false, reason: 'no result.json (still running, or ended mid-run)' };
		return { ok: false, reason: `result.json cannot be read (${code ?? (error as Error).message})` };
	}
}

/** The result, or why it is not one. Only the fields a turn needs are checked; the rest is kept as written. */
function parseResult(text: string, runId: string): RunResult | string {
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		return 'result.json is not valid JSON (half-written?)';
	}
	if (typeof value !== 'object' || value === null || Array.isArray(value)) {
		return 'result.json is not an object';
	}
	const r = value as Record<string, unknown>;
	if (r['runId'] !== runId) return `result.json names run ${JSON.stringify(r['runId'])}`;
	if (typeof r['question'] !== 'string') return 'result.json has no question';
	if (typeof r['status'] !== 'string' || !statuses.includes(r['status'])) {
		return 'result.json has no valid status';
	}
	if (r['finalAnswer'] !== null && typeof r['finalAnswer'] !== 'string') {
		return 'result.json has a bad finalAnswer';
	}
	for (const key of ['answers', 'votes', 'changes', 'usage']) {
		if (!Array.isArray(r[key])) return `result.json has no ${key} list`;
	}
	if (r['session'] !== undefined && !isSessionRecord(r['session'])) {
		return 'result.json has a bad session record';
	}
	return value as RunResult;
}

/**
 * The recorded start, unless it lies in the future (a planted run dated 2099 would list first and
 * be "the latest session"); then, as for results from before `startedAt` was recorded, the run id
 * and the result's write time, which a clone sets to when it was cloned.
 */
function believedStart(recordedValue: unknown, runId: string, fromResult: number): Date {
	const now = Date.now();
	const recorded = recordedStart(recordedValue);
	if (recorded && recorded.getTime() <= now) return recorded;
	const fallback = startTime(runId, fromResult);
	return fallback.getTime() <= now ? fallback : new Date(Math.min(fromResult, now));
}

/**
 * For results from before `startedAt` was recorded: the run id holds the start to the second; the result's write time less the run's duration
 * places it within that second, so runs started in the same second keep their order. A copied
 * workspace (new modification times) falls back to the id's second.
 */
function startTime(runId: string, fromResult: number): Date {
	const second = runIdDate(runId);
	if (!second) return new Date(fromResult);
	const start = second.getTime();
	return new Date(fromResult >= start && fromResult < start + 1000 ? fromResult : start);
}

function isSessionRecord(value: unknown): value is SessionRecord {
	if (typeof value !== 'object' || value === null) return false;
	const { id, parentRunId } = value as Record<string, unknown>;
	return typeof id === 'string' && id !== '' && (parentRunId === null || typeof parentRunId === 'string');
}

/** The run's cost in USD: null when any agent's calls had no known price. */
export function runCost(result: RunResult): number | null {
	let total = 0;
	for (const usage of result.usage) {
		if (typeof usage.costUsd !== 'number') return null;
		total += usage.costUsd;
	}
	return total;
}
