/**
 * What an accept took beyond the winner's proposal, for the changes log's accept entry
 * (`runStore/changeLog.ts`) and so for the stats (`core/stats`): each selected runner-up hunk with
 * the agents whose answers made it, and the files whose proposal the user edited first.
 */
import type { ReviewFile } from './changeSet.js';

export interface AcceptChoices {
	/** One element per selected runner-up hunk: its file and the agents (config ids) that made it. */
	readonly runnerUpHunks: { readonly path: string; readonly from: string[] }[];
	/** Files with a selected hunk the user wrote (`byUser`). */
	readonly editedPaths: string[];
}

/**
 * From the files accepted and each one's selection. A runner-up hunk is an alternative that is
 * selected, or, in a file the user edited, a hunk that keeps the runner-up it came from (`from`).
 */
export function acceptChoices(
	files: readonly ReviewFile[],
	selectionOf: (path: string) => ReadonlySet<string>,
): AcceptChoices {
	const runnerUpHunks: { path: string; from: string[] }[] = [];
	const editedPaths: string[] = [];
	for (const file of files) {
		const selected = selectionOf(file.path);
		const taken = [
			...file.alternatives.filter((alt) => selected.has(alt.id)),
			...file.hunks.filter((hunk) => hunk.from !== undefined && selected.has(hunk.id)),
		];
		for (const hunk of taken) {
			runnerUpHunks.push({
				path: file.path,
				from: [...new Set((hunk.from ?? []).map((one) => one.agentId))],
			});
		}
		if (file.hunks.some((hunk) => hunk.byUser && selected.has(hunk.id))) editedPaths.push(file.path);
	}
	return { runnerUpHunks, editedPaths };
}
