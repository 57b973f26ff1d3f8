/**
 * The past-runs list (the panel, Open Run Log, Revert Run's pick): one summary per run directory
 * this machine made (`ownRuns.ts`), newest first. A run that came with the folder is not listed:
 * these lists open, replay and revert runs, and the Runs view and `massgen runs` show the others
 * with their mark.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { RunStatus } from '../../contract/runEvents.js';
import type { PastRunSummary } from './pastRunSummary.js';
import { readOwnRuns } from './ownRuns.js';
import { parseEventLine } from './readRunEvents.js';
import { runsDir } from './runLog.js';
import { isSafeRunId, recordedStart, runIdDate } from './runId.js';
import { assertRunsDirInside } from './runsDirGuard.js';
import { openRegularFile, readRegularFile } from '../util/regularFile.js';

/** As `massgen show` reads it: a result is a few KB; a larger one is not listed. */
const maxResultBytes = 32 * 1024 * 1024;

const statuses: readonly string[] = ['completed', 'cancelled', 'timeout', 'failed'] satisfies RunStatus[];

/** The question a summary keeps: a list row shows one line of it. */
const questionChars = 2000;

/**
 * Summaries of the runs under `<workspace>/.massgen/runs/`, newest first. A run without
 * `result.json` (the process died) is summarised from its first event as `incomplete`;
 * directories that are neither are left out. No runs directory means no runs.
 */
export async function listRuns(
	workspaceRoot: string,
	env: NodeJS.ProcessEnv = process.env,
): Promise<PastRunSummary[]> {
	const root = runsDir(workspaceRoot);
	await assertRunsDirInside(workspaceRoot);
	const own = await readOwnRuns(workspaceRoot, env);
	let names: string[];
	try {
		const entries = await readdir(root, { withFileTypes: true });
		names = entries
			.filter((e) => e.isDirectory() && isSafeRunId(e.name) && own.has(e.name))
			.map((e) => e.name);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
		throw error;
	}
	const summaries: PastRunSummary[] = [];
	// One at a time: each read holds one result.json, whatever the number of runs.
	for (const name of names) {
		const summary = await summarise(join(root, name), name);
		if (summary) summaries.push(summary);
	}
	return summaries.sort((a, b) => b.startedAt.localeCompare(a.startedAt) || b.runId.localeCompare(a.runId));
}

async function summarise(runDir: string, runId: string): Promise<PastRunSummary | null> {
	const fromResult = await readResult(runDir);
	const partial = fromResult ?? (await readFirstEvent(runDir));
	if (!partial) return null;
	const { started, question, ...fields } = partial;
	const now = Date.now();
	// A start in the future is not believed (it would list first for as long as the clock allows).
	const startedAt =
		[started, runIdDate(runId)].find((date) => date && date.getTime() <= now) ?? (await stat(runDir)).mtime;
	return { runId, startedAt: startedAt.toISOString(), question: cut(question), ...fields };
}

/** `started`: the result's own start time (to the millisecond), when it records one. */
type SummaryFields = Omit<PastRunSummary, 'runId' | 'startedAt'> & { readonly started?: Date | null };

async function readResult(runDir: string): Promise<SummaryFields | null> {
	let value: unknown;
	try {
		// A repository may ship `.massgen/runs/*/result.json` as a FIFO: never a blocking open.
		const { bytes, size } = await readRegularFile(join(runDir, 'result.json'), maxResultBytes);
		if (size > maxResultBytes) return null;
		value = JSON.parse(bytes.toString('utf8'));
	} catch {
		return null;
	}
	if (typeof value !== 'object' || value === null) return null;
	const { question, status, winner, startedAt } = value as Record<string, unknown>;
	if (typeof question !== 'string' || typeof status !== 'string' || !statuses.includes(status)) return null;
	return {
		question,
		status: status as RunStatus,
		winner: parseWinner(winner),
		started: recordedStart(startedAt),
	};
}

function parseWinner(value: unknown): PastRunSummary['winner'] {
	if (typeof value !== 'object' || value === null) return null;
	const { agentId, label } = value as Record<string, unknown>;
	return typeof agentId === 'string' && typeof label === 'string' ? { agentId, label } : null;
}

/** At most `questionChars` characters, copied: a slice would keep the whole parsed text alive. */
function cut(text: string): string {
	if (text.length <= questionChars) return text;
	return Buffer.from(`${text.slice(0, questionChars)}…`, 'utf8').toString('utf8');
}

/** Reads only the first line: a crashed run's log may be large. */
async function readFirstEvent(runDir: string): Promise<SummaryFields | null> {
	const opened = await openRegularFile(join(runDir, 'events.jsonl')).catch(() => null);
	if (opened === null) return null;
	const stream = opened.handle.createReadStream({ encoding: 'utf8' });
	const lines = createInterface({ input: stream, crlfDelay: Infinity });
	try {
		for await (const line of lines) {
			const event = parseEventLine(line);
			if (event?.type !== 'run-start') return null;
			return { question: event.question, status: 'incomplete', winner: null };
		}
		return null;
	} catch {
		return null;
	} finally {
		lines.close();
		stream.destroy();
	}
}
