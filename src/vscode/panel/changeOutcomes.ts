import type { ChangeOutcomesView } from '../../protocol/changeSetView.js';

/**
 * What became of a run's files, from its record (`changes-log.jsonl`), for the panel's outcome
 * marks. The run store's readers are loaded at the first call, not at activation. Throws when the
 * run directory is not a safe one of this folder (`checkedRunDir`).
 */
export async function readChangeOutcomes(root: string, runId: string): Promise<ChangeOutcomesView> {
	const [{ checkedRunDir }, { readChangeLog }, { fileOutcomes }] = await Promise.all([
		import('../../core/runStore/runsDirGuard.js'),
		import('../../core/runStore/changeLog.js'),
		import('../../core/changes/acceptRecord.js'),
	]);
	const entries = await readChangeLog(await checkedRunDir(root, runId));
	return { runId, files: [...fileOutcomes(entries)].map(([path, outcome]) => ({ path, outcome })) };
}
