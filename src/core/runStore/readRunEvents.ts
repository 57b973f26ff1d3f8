/**
 * A run's `events.jsonl` read back: up to a cap (replaying a past run in the panel, tests) or only
 * its first line, `run-start` (the past-runs list, reports, Re-run), which is all a large log is
 * read for. The file is in the workspace: never a blocking open (`regularFile.ts`), never more
 * than a cap (a log that came with the folder is read only to a small one: `readShownRunEvents`).
 */
import { createInterface } from 'node:readline';
import type { z } from 'zod';
import type { RunEvent } from '../../contract/runEvents.js';
import { openRegularFile, readRegularFile } from '../util/regularFile.js';
import { runFile } from '../../contract/runLayout.js';
import { readOwnRuns } from './ownRuns.js';
import { checkedRunDir } from './runsDirGuard.js';
import { runEventSchema, runStartSchema } from './runEventSchema.js';

/** How much of a log is replayed. */
export const replayLimits = {
	/** A run this machine made: its log as the orchestrator wrote it. */
	ownBytes: 64 * 1024 * 1024,
	/**
	 * A run that came with the folder (`ownRuns.ts`): the panel folds every event into its state,
	 * and a planted log of thousands of answers or voters costs that fold about a millisecond per
	 * event (a 750 KB log of 5,000 voters held the extension host 45 s).
	 */
	foreignBytes: 128 * 1024,
} as const;

/**
 * Parses every complete event line within `maxBytes` (the lines after the cap are not read). A run
 * killed mid-write leaves a truncated last line, and an unreadable line elsewhere should not hide
 * the rest of the run: both are skipped.
 */
export async function readRunEvents(
	runDir: string,
	maxBytes: number = replayLimits.ownBytes,
): Promise<RunEvent[]> {
	const { bytes } = await readRegularFile(runFile(runDir, 'events'), maxBytes);
	const whole = bytes.length < maxBytes ? bytes : bytes.subarray(0, bytes.lastIndexOf(0x0a) + 1);
	return parseRunEventLines(whole.toString('utf8'));
}

/**
 * The events of run `runId` of the workspace for the panel: a run this machine made up to
 * `replayLimits.ownBytes`, one that came with the folder up to `replayLimits.foreignBytes`.
 */
export async function readShownRunEvents(
	workspaceRoot: string,
	runId: string,
	env: NodeJS.ProcessEnv = process.env,
): Promise<RunEvent[]> {
	const runDir = await checkedRunDir(workspaceRoot, runId);
	const own = await readOwnRuns(workspaceRoot, env);
	return readRunEvents(runDir, own.has(runId) ? replayLimits.ownBytes : replayLimits.foreignBytes);
}

function parseRunEventLines(text: string): RunEvent[] {
	const events: RunEvent[] = [];
	for (const line of text.split('\n')) {
		if (line.trim() === '') continue;
		const event = parseEventLine(line);
		if (event) events.push(event);
	}
	return events;
}

/** One line as a RunEvent, or null when it is not JSON or not an event of a known type and shape. */
function parseEventLine(line: string): RunEvent | null {
	return parseLine(line, runEventSchema);
}

/** How much of the log the first line is looked for in: a planted log may be one endless line. */
const maxFirstLineBytes = 32 * 1024 * 1024;

/** What `run-start` records, as its first line holds it. */
export type RunStart = Extract<RunEvent, { type: 'run-start' }>;

/**
 * The run's `run-start`, reading only the first line within `maxBytes` (a crashed run's log may be
 * large); null when the log is missing, not a regular file, or its first line is not a well-formed `run-start`.
 */
export async function readRunStart(runDir: string, maxBytes = maxFirstLineBytes): Promise<RunStart | null> {
	const opened = await openRegularFile(runFile(runDir, 'events')).catch(() => null);
	if (opened === null) return null;
	const stream = opened.handle.createReadStream({ encoding: 'utf8', end: maxBytes - 1 });
	const lines = createInterface({ input: stream, crlfDelay: Infinity });
	try {
		for await (const line of lines) {
			// A line cut at the cap is not JSON: no run-start.
			return parseLine(line, runStartSchema);
		}
		return null;
	} catch {
		return null;
	} finally {
		lines.close();
		stream.destroy();
	}
}

function parseLine<S extends z.ZodType>(line: string, schema: S): z.infer<S> | null {
	let value: unknown;
	try {
		value = JSON.parse(line);
	} catch {
		return null;
	}
	const parsed = schema.safeParse(value);
	return parsed.success ? parsed.data : null;
}
