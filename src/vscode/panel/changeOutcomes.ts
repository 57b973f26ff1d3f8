import type { ChangeOutcomesView } from '../../protocol/changeSetView.js';

/**
 * What became of a run's files, from its record (`changes-log.jsonl`), for the panel's outcome
 * marks (a run that came with the folder: its first 256 KiB, `readShownChangeLog`). The run store's
 * readers are loaded at the first call, not at activation. Throws when the run directory is not a
 * safe one of this folder (`checkedRunDir`).
 */
export async function readChangeOutcomes(root: string, runId: string): Promise<ChangeOutcomesView> {
	const [{ readShownChangeLog }, { fileOutcomes }] = await Promise.all([
		import('../../core/runStore/changeLog.js'),
		import('../../core/changes/acceptRecord.js'),
	]);
	const entries = await readShownChangeLog(root, runId);
	return { runId, files: [...fileOutcomes(entries)].map(([path, outcome]) => ({ path, outcome })) };
}
