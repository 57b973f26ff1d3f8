/**
 * A cheap fingerprint of the runs folders: each run id and whether its `result.json` exists. Two
 * different fingerprints mean a run started, ended or went; the Runs view then reads again. Only
 * run folders inside the workspace count, as for every reader of `.massgen/runs`: a `.massgen`
 * that is a link (`assertRunsDirInside`) lists nothing, so the view never polls a folder a
 * repository pointed it to.
 */
import { access, readdir } from 'node:fs/promises';
import { runDirOf, runFile, runsDir } from '../../contract/runLayout.js';
import { isSafeRunId } from '../../contract/runId.js';
import { assertRunsDirInside } from './runsDirGuard.js';

export async function runsListing(roots: readonly string[]): Promise<string> {
	const parts = await Promise.all(
		roots.map(async (root) => {
			const names = await assertRunsDirInside(root)
				.then(() => readdir(runsDir(root)))
				.then((all) => all.filter(isSafeRunId).sort())
				.catch(() => [] as string[]);
			const ended = await Promise.all(
				names.map((name) =>
					access(runFile(runDirOf(root, name), 'result')).then(
						() => `${name}+`,
						() => name,
					),
				),
			);
			return `${root}\n${ended.join('\n')}`;
		}),
	);
	return parts.join('\n\n');
}
