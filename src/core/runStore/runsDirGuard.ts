/**
 * `.massgen` and `.massgen/runs` come with the repository, so a hostile one can make them links
 * (`.massgen -> ../elsewhere`): every run log would then be written outside the workspace, old runs
 * read from there, and pruning would delete there. They must be real folders (or not exist yet).
 */
import { lstat, readlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { runDirOf, runsDir } from '../../contract/runLayout.js';
import { isSafeRunId } from '../../contract/runId.js';
import { hasErrorMark } from '../util/errorMark.js';

const mark = Symbol.for('massgen.RunsDirError');

export class RunsDirError extends Error {
	override readonly name = 'RunsDirError';
	readonly [mark] = true;

	/** Survives duplicate module copies (the engine bundle), unlike `instanceof`. */
	static is(value: unknown): value is RunsDirError {
		return hasErrorMark(value, mark);
	}
}

/** Throws `RunsDirError` when `.massgen` or `.massgen/runs` under the workspace is a link or not a folder. */
export async function assertRunsDirInside(workspaceRoot: string): Promise<void> {
	for (const path of [dirname(runsDir(workspaceRoot)), runsDir(workspaceRoot)]) {
		await assertRealFolder(path);
	}
}

/** Throws `RunsDirError` when `path` is a link or not a folder; a missing path is fine. */
export async function assertRealFolder(path: string): Promise<void> {
	const info = await lstat(path).catch((error: NodeJS.ErrnoException) => {
		if (error.code === 'ENOENT') return undefined;
		throw error;
	});
	if (info === undefined) return;
	if (info.isSymbolicLink()) {
		const target = await readlink(path).catch(() => '?');
		throw new RunsDirError(
			`${path} is a link (to ${target}): run directories are kept only inside the workspace; replace the link with a folder or remove it`,
		);
	}
	if (!info.isDirectory()) {
		throw new RunsDirError(`${path} is not a folder: run directories need it to be one; move it away`);
	}
}

/**
 * The directory of run `runId`: its id names one folder under `.massgen/runs/`, and neither that
 * folder nor the two above it is a link. Throws `RunsDirError` (the reason in words) otherwise;
 * the folder itself need not exist.
 */
export async function checkedRunDir(workspaceRoot: string, runId: string): Promise<string> {
	if (!isSafeRunId(runId)) throw new RunsDirError(`'${runId}' is not a run id`);
	await assertRunsDirInside(workspaceRoot);
	const runDir = runDirOf(workspaceRoot, runId);
	await assertRealFolder(runDir);
	return runDir;
}
