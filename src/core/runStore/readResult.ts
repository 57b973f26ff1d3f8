/**
 * A run's `result.json` read back: as a turn (sessions, reports, history), as a line of the
 * past-runs list, or only its change set. Never a blocking open (a repository may ship a FIFO
 * there: `regularFile.ts`), never more than a cap, and a malformed file is a reason, not a throw.
 */
import { stat } from 'node:fs/promises';
import type { z } from 'zod';
import type { SessionRecord } from '../../contract/runEvents.js';
import type { PlanRunRecord } from '../../contract/plan.js';
import type { RunResult } from '../../contract/runResult.js';
import { readRegularFile } from '../util/regularFile.js';
import { runFile, runFileNames } from '../../contract/runLayout.js';
import { recordedStart, runIdDate } from '../../contract/runId.js';
import { fileProblem, resultChangesSchema, resultSummarySchema, runResultSchema } from './runSchemas.js';

/** A result.json larger than this is not read (changes carry file texts; this bounds one read). */
export const maxResultBytes = 32 * 1024 * 1024;

const name = runFileNames.result;

export type RunResultRead =
	| {
			readonly ok: true;
			readonly result: RunResult;
			readonly session: SessionRecord;
			/** ISO 8601: recorded, else from the run id and the file's write time; never in the future. */
			readonly startedAt: string;
			/** The size of `result.json` read. */
			readonly bytes: number;
	  }
	/** `tooLarge`: over `maxBytes` (a listing tells a cap it reached from a broken file); `missing`: no `result.json` yet. */
	| { readonly ok: false; readonly reason: string; readonly tooLarge?: true; readonly missing?: true };

/**
 * Reads `<runDir>/result.json` of run `runId` if it is at most `maxBytes`; never throws. A result
 * without a session record is a one-turn session.
 */
export async function readRunResult(
	runDir: string,
	runId: string,
	maxBytes: number = maxResultBytes,
): Promise<RunResultRead> {
	const file = runFile(runDir, 'result');
	try {
		const { mtime } = await stat(file);
		const { bytes, size } = await readRegularFile(file, maxBytes);
		if (size > maxBytes) return { ok: false, reason: `${name} is too large (${size} bytes)`, tooLarge: true };
		const parsed = parseJson(bytes, runResultSchema(runId));
		if (!parsed.ok) return parsed;
		// Checked field by field above; the fields no reader uses are kept as written.
		const result = parsed.value as unknown as RunResult;
		const duration = typeof result.durationMs === 'number' ? result.durationMs : 0;
		const startedAt = believedStart(result.startedAt, runId, mtime.getTime() - duration).toISOString();
		const session = result.session ?? { id: runId, parentRunId: null };
		return { ok: true, result, session, startedAt, bytes: size };
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === 'ENOENT') {
			return { ok: false, reason: `no ${name} (still running, or ended mid-run)`, missing: true };
		}
		return { ok: false, reason: `${name} cannot be read (${code ?? (error as Error).message})` };
	}
}

/** What a line of the past-runs list takes from `result.json`. */
export interface ResultSummary {
	readonly question: string;
	readonly status: RunResult['status'];
	readonly winner: RunResult['winner'];
	/** The recorded start (to the millisecond), null when absent or not a time. */
	readonly started: Date | null;
	readonly plan?: PlanRunRecord;
}

/** The list's fields of `<runDir>/result.json`; null when it is missing, over the cap or malformed. */
export async function readResultSummary(runDir: string): Promise<ResultSummary | null> {
	const read = await readResultFile(runDir, resultSummarySchema);
	if (read === null) return null;
	const { question, status, winner, startedAt, plan } = read;
	return { question, status, winner, started: recordedStart(startedAt), ...(plan ? { plan } : {}) };
}

/** The change set `result.json` records: how many files, and the paths as recorded (strings only). */
export interface ProposedChanges {
	readonly count: number;
	readonly paths: readonly string[];
}

/** None when `result.json` is missing, unreadable or malformed: nothing to review. */
export async function readProposedChanges(runDir: string): Promise<ProposedChanges> {
	const read = await readResultFile(runDir, resultChangesSchema);
	if (read === null) return { count: 0, paths: [] };
	const paths = read.changes.flatMap((change) => {
		const path = (change as { path?: unknown } | null)?.path;
		return typeof path === 'string' ? [path] : [];
	});
	return { count: read.changes.length, paths };
}

async function readResultFile<S extends z.ZodType>(runDir: string, schema: S): Promise<z.infer<S> | null> {
	try {
		const { bytes, size } = await readRegularFile(runFile(runDir, 'result'), maxResultBytes);
		if (size > maxResultBytes) return null;
		const parsed = parseJson(bytes, schema);
		return parsed.ok ? parsed.value : null;
	} catch {
		return null;
	}
}

type Parsed<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly reason: string };

function parseJson<S extends z.ZodType>(bytes: Buffer, schema: S): Parsed<z.infer<S>> {
	let value: unknown;
	try {
		value = JSON.parse(bytes.toString('utf8'));
	} catch {
		return { ok: false, reason: `${name} is not valid JSON (half-written?)` };
	}
	const parsed = schema.safeParse(value);
	return parsed.success
		? { ok: true, value: parsed.data }
		: { ok: false, reason: fileProblem(name, value, parsed.error) };
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
 * For results from before `startedAt` was recorded: the run id holds the start to the second; the
 * result's write time less the run's duration places it within that second, so runs started in
 * the same second keep their order. A copied workspace (new modification times) falls back to the
 * id's second.
 */
function startTime(runId: string, fromResult: number): Date {
	const second = runIdDate(runId);
	if (!second) return new Date(fromResult);
	const start = second.getTime();
	return new Date(fromResult >= start && fromResult < start + 1000 ? fromResult : start);
}
