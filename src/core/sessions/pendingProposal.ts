/**
 * The proposal a run still has under review, as it would be written now: each file of its change
 * set that nobody accepted or rejected yet, merged three-way onto the file as it is today (the CLI's
 * `--continue RUN_ID --comments FILE`; the editor sends what its review shows). Only runs this
 * machine made; every read goes through the tools' path policy.
 */
import type { ProposalFile } from '../../contract/revision.js';
import { runDirOf } from '../../contract/runLayout.js';
import { fileOutcomes } from '../changes/acceptRecord.js';
import { merge3 } from '../changes/merge3.js';
import { readChangeLog } from '../runStore/changeLog.js';
import { foreignRunMessage, readOwnRuns } from '../runStore/ownRuns.js';
import { readRunResult } from '../runStore/readResult.js';
import { createWorkspace } from '../workspace/createWorkspace.js';
import { SessionError } from './historyOf.js';

export interface PendingProposal {
	readonly files: readonly ProposalFile[];
	/** Pending files left out, each with why (applied already, or edited since in a way that conflicts). */
	readonly skipped: readonly { readonly path: string; readonly reason: string }[];
}

export async function pendingProposal(workspaceRoot: string, runId: string): Promise<PendingProposal> {
	if (!(await readOwnRuns(workspaceRoot)).has(runId)) {
		throw new SessionError(await foreignRunMessage(workspaceRoot, runId, 'revised'));
	}
	const runDir = runDirOf(workspaceRoot, runId);
	const read = await readRunResult(runDir, runId);
	if (!read.ok) throw new SessionError(`run ${runId}: ${read.reason}`);
	const decided = fileOutcomes(await readChangeLog(runDir).catch(() => []));
	const disk = (await createWorkspace(workspaceRoot)).createOverlay();
	const files: ProposalFile[] = [];
	const skipped: { path: string; reason: string }[] = [];
	for (const change of read.result.changes) {
		const outcome = decided.get(change.path);
		if (outcome !== undefined) {
			skipped.push({ path: change.path, reason: `${outcome.replace('-', ' ')} already` });
			continue;
		}
		let now: string | null;
		try {
			now = await disk.readText(change.path);
		} catch (error) {
			skipped.push({ path: change.path, reason: (error as Error).message });
			continue;
		}
		const content = proposedNow(change.base, change.content, now);
		if (content === 'applied') {
			skipped.push({ path: change.path, reason: 'the file already holds the change' });
		} else if (content === 'conflict') {
			skipped.push({ path: change.path, reason: 'edited since the run, in lines the change also changes' });
		} else files.push({ path: change.path, content: content.text });
	}
	if (read.result.changes.length === 0) throw new SessionError(`run ${runId} proposed no file changes`);
	return { files, skipped };
}

/** The change made on today's text: the same base, or merged three-way when the file moved on. */
function proposedNow(
	base: string | null,
	team: string | null,
	now: string | null,
): { text: string | null } | 'applied' | 'conflict' {
	if (now === team) return 'applied';
	if (now === base) return { text: team };
	if (base === null || team === null || now === null) return 'conflict';
	const merged = merge3(base, now, team);
	return merged.clean ? { text: merged.text } : 'conflict';
}
