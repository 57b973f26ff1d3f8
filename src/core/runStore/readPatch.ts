import { readRegularTextOrNull } from '../util/regularFile.js';
import { runFile } from '../../contract/runLayout.js';

/** A change set's patch: the snapshot caps each file at 8 MiB; a larger patch is not shown. */
const maxPatchBytes = 64 * 1024 * 1024;

/**
 * The run's `changes.patch`; empty when the run proposed no changes or the file is over the cap,
 * unreadable or not a regular file (a repository may ship a FIFO there: never a blocking open).
 */
export async function readRunPatch(runDir: string): Promise<string> {
	return (await readRegularTextOrNull(runFile(runDir, 'patch'), maxPatchBytes)) ?? '';
}
