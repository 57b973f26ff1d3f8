/**
 * Writes a finished run's change set to the workspace (`run --apply`, chat's `/accept`), recorded
 * in the run's `changes-log.jsonl` so `massgen revert` can undo it.
 */
import { applyChangeSet } from '../core/changes/applyChangeSet.js';
import { flaggedChanges } from '../core/changes/executablePaths.js';
import type { RunSessionOutcome } from '../core/run/runSession.js';
import { runFile } from '../contract/runLayout.js';
import { WorkspaceLockedError } from '../core/workspace/workspaceLock.js';
import { lockWaitNotice } from './lockWaitNotice.js';
import type { SecretWriteConsent } from './secretWritePrompt.js';

/** True when every change was written; the reasons go to `stderr` otherwise. */
export async function applyWinner(
	root: string,
	outcome: Pick<RunSessionOutcome, 'result' | 'runDir' | 'workspace'>,
	stderr: NodeJS.WritableStream,
	/**
	 * Asked when files would get a secret value the run knows, or are files other tools run
	 * (`executablePaths.ts`); undefined: nothing is written then.
	 */
	consent?: SecretWriteConsent,
	/** Ctrl-C: stops a wait for the workspace lock (nothing is written then). */
	signal?: AbortSignal,
): Promise<boolean> {
	const { result, runDir, workspace } = outcome;
	const secretFiles = result.secretValueFiles ?? [];
	if (secretFiles.length > 0) {
		stderr.write(
			`massgen: ${secretFiles.join(', ')} would get a secret value this run knows (a key from the environment, .env or the config; [redacted] in changes.patch)\n`,
		);
	}
	// Files other programs run or obey later (CI, editor tasks, hooks, agent configs): one question
	// for these and the secret-valued ones; the change set is written whole or not at all.
	const flagged = flaggedChanges(result.changes);
	for (const file of flagged) stderr.write(`massgen: ${file.path}: ${file.reason}\n`);
	if (flagged.length > 0) {
		stderr.write(
			`massgen: the files above run code or steer other tools later; check them in ${runFile(runDir, 'patch')}\n`,
		);
	}
	const marked = [...new Set([...secretFiles, ...flagged.map((file) => file.path)])];
	if (marked.length > 0) {
		if (!(await consent?.(marked))) {
			stderr.write('massgen: nothing was written\n');
			return false;
		}
	}
	let applied;
	try {
		applied = await applyChangeSet(root, result.runId, result.changes, {
			protectedPaths: workspace.protectedPaths,
			secrets: workspace.secretPaths,
			record: { runDir, by: 'cli' },
			lock: { tool: 'massgen --apply', onWait: lockWaitNotice(stderr), ...(signal ? { signal } : {}) },
		});
	} catch (error) {
		if (signal?.aborted) {
			stderr.write('massgen: nothing was written: stopped waiting for the workspace lock\n');
			return false;
		}
		if (!WorkspaceLockedError.is(error)) throw error;
		stderr.write(`massgen: nothing was written: ${error.message}\n`);
		return false;
	}
	if (applied.conflicts.length > 0) {
		for (const conflict of applied.conflicts) {
			stderr.write(`not applied: ${conflict.path}: ${conflict.reason}\n`);
		}
		// Written files only when a path turned into a link between the checks and its write.
		const wrote =
			applied.applied.length > 0 ? `only ${applied.applied.join(', ')} written` : 'nothing was written';
		stderr.write(
			`massgen: ${wrote}: the files above changed since the team read them in ways that clash with its changes, or may not be written (the proposed changes are in changes.patch in the run log)\n`,
		);
		return false;
	}
	for (const path of applied.merged) stderr.write(`merged your edits with the team's in ${path}\n`);
	stderr.write(`applied ${applied.applied.length} change(s): ${applied.applied.join(', ')}\n`);
	return true;
}
