/**
 * A cheap fingerprint of the runs folders: each run id and whether its `result.json` exists. Two
 * different fingerprints mean a run started, ended or went; the Runs view then reads again.
 */
import { access, readdir } from 'node:fs/promises';
import { runDirOf, runFile, runsDir } from '../../contract/runLayout.js';

export async function runsListing(roots: readonly string[]): Promise<string> {
	const parts = await Promise.all(
		roots.map(async (root) => {
			const names = (await readdir(runsDir(root)).catch(() => [] as string[])).sort();
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
