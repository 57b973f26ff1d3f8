/**
 * A run in progress says so in its folder: `running.json` names the process that runs it (host,
 * pid and the process's start, `util/processLiveness.ts`) and the turn it continues. The run log
 * writes it as soon as it has made the folder and removes it when it closes, so another process
 * (a second `massgen run`, `massgen mcp`, the editor) can tell a run that is going on from one whose
 * process died: the marker's process no longer runs, or its pid now belongs to a later process.
 * Retention (`pruneRuns.ts`) never deletes a live run or a turn a live run continues.
 *
 * The folder is workspace content: a planted marker can only make a run look live, which keeps it
 * and its parents; it is read with a small cap, never through a link, and a FIFO is never opened.
 */
import { lstat, readdir, rm, writeFile } from 'node:fs/promises';
import { runDirOf, runFile, runsDir } from '../../contract/runLayout.js';
import { isSafeRunId } from '../../contract/runId.js';
import { readRegularTextOrNull } from '../util/regularFile.js';
import {
	hostProcesses,
	markState,
	processMark,
	type ProcessMark,
	type ProcessTable,
} from '../util/processLiveness.js';

export interface RunningMarker extends ProcessMark {
	/** ISO time the run's folder was made. */
	readonly since: string;
	/** The turn this run continues (its session's chain), null for a first turn. */
	readonly parentRunId: string | null;
}

/** A marker is a few hundred bytes; anything longer is not one. */
const maxMarkerBytes = 4096;

/** Written into a new run folder (the file must not exist: the folder was just made). */
export async function writeRunningMarker(
	runDir: string,
	parentRunId: string | null,
	mark: ProcessMark = processMark(),
	now: Date = new Date(),
): Promise<void> {
	const marker: RunningMarker = { ...mark, since: now.toISOString(), parentRunId };
	await writeFile(runFile(runDir, 'running'), `${JSON.stringify(marker)}\n`, { flag: 'wx', mode: 0o600 });
}

/** Removed when the run's log closes: the run is over (finished, failed or cancelled). */
export async function removeRunningMarker(runDir: string): Promise<void> {
	await rm(runFile(runDir, 'running'), { force: true });
}

/**
 * The marker of one run, or null when it has none (finished, or from before markers) or it is not
 * one: a link, a FIFO (never opened: `readRegularTextOrNull`), over the cap or not a marker's JSON.
 */
export async function readRunningMarker(runDir: string): Promise<RunningMarker | null> {
	const file = runFile(runDir, 'running');
	const info = await lstat(file).catch(() => null);
	if (!info?.isFile()) return null;
	const text = await readRegularTextOrNull(file, maxMarkerBytes);
	return text === null ? null : parseMarker(text);
}

function parseMarker(text: string): RunningMarker | null {
	try {
		const value = JSON.parse(text) as Partial<RunningMarker>;
		if (typeof value.host !== 'string' || typeof value.pid !== 'number' || !Number.isInteger(value.pid)) {
			return null;
		}
		const parent =
			typeof value.parentRunId === 'string' && isSafeRunId(value.parentRunId) ? value.parentRunId : null;
		return {
			host: value.host,
			pid: value.pid,
			start: typeof value.start === 'string' ? value.start : null,
			since: typeof value.since === 'string' ? value.since : '',
			parentRunId: parent,
		};
	} catch {
		return null;
	}
}

/**
 * The runs of the workspace going on now, each with the turn it continues: a marker whose process
 * runs (or runs on another host, which cannot be checked). A marker whose process is gone is a run
 * that died: not live.
 */
export async function liveRuns(
	workspaceRoot: string,
	processes: ProcessTable = hostProcesses,
): Promise<ReadonlyMap<string, string | null>> {
	let names: string[];
	try {
		const entries = await readdir(runsDir(workspaceRoot), { withFileTypes: true });
		names = entries.filter((e) => e.isDirectory() && isSafeRunId(e.name)).map((e) => e.name);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new Map();
		throw error;
	}
	const live = new Map<string, string | null>();
	for (const runId of names) {
		const marker = await readRunningMarker(runDirOf(workspaceRoot, runId));
		if (marker && markState(marker, processes) !== 'dead') live.set(runId, marker.parentRunId);
	}
	return live;
}

/** Whether a run is going on now: its marker names a process that still runs (or runs elsewhere). */
export async function runningNow(runDir: string, processes: ProcessTable = hostProcesses): Promise<boolean> {
	const marker = await readRunningMarker(runDir);
	return marker !== null && markState(marker, processes) !== 'dead';
}

/**
 * Why a run has no `result.json`, from its marker: going on now, or its process ended mid-run; null
 * when it has no marker (its log closed without a result, or it predates markers).
 */
export async function unfinishedReason(
	runDir: string,
	processes: ProcessTable = hostProcesses,
): Promise<string | null> {
	const marker = await readRunningMarker(runDir);
	if (!marker) return null;
	const where = `pid ${marker.pid} on ${marker.host}`;
	return markState(marker, processes) === 'dead'
		? `no result.json: its process (${where}) ended mid-run`
		: `running now (${where})`;
}
