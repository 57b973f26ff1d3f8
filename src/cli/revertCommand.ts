import { readChangeLog } from '../core/runStore/changeLog.js';
import { recordedProtectedPaths, revertRunOnDisk } from '../core/changes/revertRun.js';
import { loadConfigFile } from '../core/config/loadConfig.js';
import { foreignRunMessage, readOwnRuns } from '../core/runStore/ownRuns.js';
import { isSafeRunId } from '../contract/runId.js';
import { runDirOf, runFile, runsDir } from '../contract/runLayout.js';
import { assertRealFolder, assertRunsDirInside } from '../core/runStore/runsDirGuard.js';
import { pathExists } from '../core/util/pathExists.js';
import { createWorkspace } from '../core/workspace/createWorkspace.js';
import { secretPaths } from '../core/workspace/secretPaths.js';
import { WorkspaceLockedError } from '../core/workspace/workspaceLock.js';
import { lockWaitNotice } from './lockWaitNotice.js';

export interface RevertCommand {
	readonly kind: 'revert';
	readonly workspace: string;
	readonly runId: string;
	/** Write conflict markers instead of stopping with nothing written. */
	readonly markers: boolean;
}

/**
 * `massgen revert RUN_ID`: undoes what `--apply` (or the editor's Accept) wrote for that run, from
 * the run's `changes-log.jsonl`; run again, it re-applies. Exit 0 reverted, 1 nothing to revert,
 * 2 conflicts (nothing written; listed), a refused path, or a run this machine did not make; 4
 * stopped by Ctrl-C while it waited for another write to the workspace.
 */
export async function revertCommand(
	command: RevertCommand,
	stderr: NodeJS.WritableStream,
	/** Ctrl-C: stops a wait for the workspace lock (nothing is written; exit 4). */
	signal?: AbortSignal,
): Promise<number> {
	const { workspace: root, runId } = command;
	const runDir = runDirOf(root, runId);
	// A linked `.massgen` would have the record read (and files written by it) from elsewhere.
	await assertRunsDirInside(root);
	if (isSafeRunId(runId)) await assertRealFolder(runDir);
	if (!isSafeRunId(runId) || !(await pathExists(runDir))) {
		stderr.write(`massgen: no run ${runId} in ${runsDir(root)} (massgen runs lists them)\n`);
		return 1;
	}
	// Before its record is read: only a run this machine made is reverted (`revertRunOnDisk` checks again).
	if (!(await readOwnRuns(root)).has(runId)) {
		stderr.write(`massgen: nothing was written: ${await foreignRunMessage(root, runId, 'reverted')}\n`);
		return 2;
	}
	const entries = await readChangeLog(runDir);
	if (!entries.some((entry) => entry.kind === 'accept')) {
		stderr.write(`massgen: run ${runId} has no accepted changes to revert\n`);
		return 1;
	}
	const policy = await writePolicy(root, runDir, recordedProtectedPaths(entries));
	let result;
	try {
		result = await revertRunOnDisk(policy.root, runDir, {
			runId,
			by: 'cli',
			markers: command.markers,
			protectedPaths: policy.protectedPaths,
			secrets: policy.secretPaths,
			lock: { tool: 'massgen revert', onWait: lockWaitNotice(stderr), ...(signal ? { signal } : {}) },
		});
	} catch (error) {
		if (signal?.aborted) {
			stderr.write('massgen: nothing was written: stopped waiting for the workspace lock\n');
			return 4;
		}
		if (!WorkspaceLockedError.is(error)) throw error;
		stderr.write(`massgen: nothing was written: ${error.message}\n`);
		return 2;
	}
	if (result.status === 'conflicts') {
		for (const conflict of result.conflicts) {
			stderr.write(`not reverted: ${conflict.path}: ${conflict.reason}\n`);
		}
		const wrote =
			result.written.length > 0 ? `only ${result.written.join(', ')} written` : 'nothing was written';
		stderr.write(
			`massgen: ${wrote}${command.markers ? '' : ' (--markers writes conflict markers into the files above and reverts the rest)'}\n`,
		);
		return 2;
	}
	for (const path of result.merged) stderr.write(`kept your later edits in ${path}\n`);
	for (const path of result.marked) stderr.write(`conflict markers written in ${path}: resolve them\n`);
	for (const path of result.kept) stderr.write(`left as it is: ${path}\n`);
	const done = result.mode === 'reapply' ? 're-applied' : 'reverted';
	stderr.write(
		`${done} ${result.written.length} file(s) of run ${runId}: ${result.written.join(', ') || 'none'}\n`,
	);
	return 0;
}

/**
 * What the revert's writes are checked against: the `protected_paths` the accepts recorded and the
 * run's own `protected_paths` and `secret_paths` (its `config.yaml`), on top of the built-in policy
 * that every write re-checks anyway.
 */
async function writePolicy(root: string, runDir: string, recorded: readonly string[]) {
	const { config } = await loadConfigFile(runFile(runDir, 'config'));
	return createWorkspace(root, {
		protectedPaths: [...recorded, ...(config?.orchestrator.protected_paths ?? [])],
		secretPaths: secretPaths(config?.orchestrator.secret_paths ?? []),
	});
}
