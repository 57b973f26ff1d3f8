/**
 * The run directory's layout, named once: `<workspace>/.massgen/runs/<runId>/` and the files in it.
 * Every reader and writer of a run's files takes their names from here: the run store
 * (`core/runStore`) and the permissions ledger, which sits below it and writes `permissions.jsonl`.
 */
import { join } from 'node:path';

/** The files of one run directory, by what they hold. */
export const runFileNames = {
	/** One `RunEvent` per line, appended during the run (`RunLogWriter`). */
	events: 'events.jsonl',
	/** The `RunResult`, written at the end (also for cancelled, timed-out and failed runs). */
	result: 'result.json',
	/** The final answer's text, when there is one. */
	finalAnswer: 'final-answer.md',
	/** Unified diff of the winner's change set, when it has changes. */
	patch: 'changes.patch',
	/** The resolved team config, redacted. */
	config: 'config.yaml',
	/** The tools' permission decisions (`AuditLedger`). */
	permissions: 'permissions.jsonl',
	/** What happened to the changes: accepts, rejects, reverts (`changeLog.ts`; not redacted). */
	changeLog: 'changes-log.jsonl',
	/** Present while the run goes on: which process runs it (`runningMarker.ts`). */
	running: 'running.json',
} as const;

export type RunFile = keyof typeof runFileNames;

/** Where the runs of a workspace live. */
export function runsDir(workspaceRoot: string): string {
	return join(workspaceRoot, '.massgen', 'runs');
}

/** One run's directory (the id is not checked here: `checkedRunDir` does, with the folder guards). */
export function runDirOf(workspaceRoot: string, runId: string): string {
	return join(runsDir(workspaceRoot), runId);
}

/** The path of one of a run's files. */
export function runFile(runDir: string, file: RunFile): string {
	return join(runDir, runFileNames[file]);
}

/** Watch patterns (relative to a workspace folder) for a run's end and its change record, and for the folders themselves. */
export const runsWatchGlobs = {
	files: `**/.massgen/runs/*/{${runFileNames.result},${runFileNames.changeLog}}`,
	folders: '**/{.massgen,.massgen/runs,.massgen/runs/*}',
} as const;
