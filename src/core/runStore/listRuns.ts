/**
 * The past-runs list (the panel, Open Run Log, Revert Run's pick): one summary per run directory
 * this machine made (`ownRuns.ts`), newest first. A run that came with the folder is not listed:
 * these lists open, replay and revert runs, and the Runs view and `massgen runs` show the others
 * with their mark.
 */
import { readdir, stat } from 'node:fs/promises';
import type { PastRunSummary } from '../../contract/pastRunSummary.js';
import { readOwnRuns } from './ownRuns.js';
import { readRunStart } from './readRunEvents.js';
import { readResultSummary, type ResultSummary } from './readResult.js';
import { runningNow } from './runningMarker.js';
import { hostProcesses, type ProcessTable } from '../util/processLiveness.js';
import { runDirOf, runsDir } from '../../contract/runLayout.js';
import { isSafeRunId, runIdDate } from '../../contract/runId.js';
import { assertRunsDirInside } from './runsDirGuard.js';

/** The question a summary keeps: a list row shows one line of it. */
const questionChars = 2000;

/**
 * Summaries of the runs under `<workspace>/.massgen/runs/`, newest first. A run without
 * `result.json` is summarised from its first event as `running` (its marker's process runs: this
 * window's other runs, another process's) or `incomplete` (the process died); directories that are
 * neither are left out. No runs directory means no runs.
 */
export async function listRuns(
	workspaceRoot: string,
	env: NodeJS.ProcessEnv = process.env,
	processes: ProcessTable = hostProcesses,
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
		const summary = await summarise(runDirOf(workspaceRoot, name), name, processes);
		if (summary) summaries.push(summary);
	}
	return summaries.sort((a, b) => b.startedAt.localeCompare(a.startedAt) || b.runId.localeCompare(a.runId));
}

/** From `result.json`, else (none, over the cap, malformed) from `run-start` as `running` or `incomplete`. */
async function summarise(
	runDir: string,
	runId: string,
	processes: ProcessTable,
): Promise<PastRunSummary | null> {
	const partial = (await readResultSummary(runDir)) ?? (await startedOnly(runDir, processes));
	if (!partial) return null;
	const { started, question, status, winner } = partial;
	const plan = 'plan' in partial ? partial.plan : undefined;
	const now = Date.now();
	// A start in the future is not believed (it would list first for as long as the clock allows).
	const startedAt =
		[started, runIdDate(runId)].find((date) => date && date.getTime() <= now) ?? (await stat(runDir)).mtime;
	return {
		runId,
		startedAt: startedAt.toISOString(),
		question: cut(question),
		status,
		winner,
		...(plan ? { plan } : {}),
	};
}

/** A run without a readable result: its question from the log's first line. */
async function startedOnly(
	runDir: string,
	processes: ProcessTable,
): Promise<(Omit<ResultSummary, 'status'> & { status: 'running' | 'incomplete' }) | null> {
	const start = await readRunStart(runDir);
	if (!start) return null;
	const status = (await runningNow(runDir, processes)) ? 'running' : 'incomplete';
	return { question: start.question, status, winner: null, started: null };
}

/** At most `questionChars` characters, copied: a slice would keep the whole parsed text alive. */
function cut(text: string): string {
	if (text.length <= questionChars) return text;
	return Buffer.from(`${text.slice(0, questionChars)}…`, 'utf8').toString('utf8');
}
