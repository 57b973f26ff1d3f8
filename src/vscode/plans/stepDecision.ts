import type * as vscode from 'vscode';
import { runDirOf } from '../../contract/runLayout.js';
import { type ChangeOutcome, readChangeOutcome } from '../../core/changes/acceptRecord.js';
import { readChangeLog } from '../../core/runStore/changeLog.js';
import type { ChangeSetChange } from '../run/runTypes.js';

/** What the user made of a step's change set: the run it ended on (a Send to Team revision takes its step's place). */
export interface StepDecision {
	readonly runId: string;
	readonly outcome: 'accepted' | 'partly-accepted' | 'rejected' | 'none' | 'undecided';
}

const decided: ReadonlySet<ChangeOutcome> = new Set(['accepted', 'partly-accepted', 'rejected', 'none']);

/**
 * Waits until the change review has nothing of run `runId` pending, then reads what became of it
 * from the run's record (`changes-log.jsonl`, written before the review says so: `acceptPending`'s
 * `record`), the way the Runs view does (`changeOutcome`): accepted whole or in part, or rejected.
 * A set superseded by a revision (Send to Team on the step's proposal) is followed to the revising
 * run. Subscribes before the first read, so a decision made meanwhile is never missed. `undecided`:
 * nothing is pending any more, yet the record says neither (it could not be written or read).
 */
export async function stepDecision(
	changes: { readonly onDidChangeChangeSet: vscode.Event<ChangeSetChange> },
	root: string,
	runId: string,
	signal?: AbortSignal,
): Promise<StepDecision> {
	let current = runId;
	let settled: (() => void) | undefined;
	const listener = changes.onDidChangeChangeSet((change) => {
		if (change.runId === current && change.changeSet === null) settled?.();
	});
	try {
		for (;;) {
			const cleared = new Promise<void>((resolve) => {
				settled = resolve;
				signal?.addEventListener('abort', () => resolve(), { once: true });
			});
			const outcome = await readChangeOutcome(runDirOf(root, current));
			if (decided.has(outcome)) return { runId: current, outcome: outcome as StepDecision['outcome'] };
			if (outcome === 'superseded') {
				const by = await revisingRun(root, current);
				if (by) {
					current = by;
					continue;
				}
				return { runId: current, outcome: 'undecided' };
			}
			if (signal?.aborted) return { runId: current, outcome: 'undecided' };
			await cleared;
			if (signal?.aborted) return { runId: current, outcome: 'undecided' };
			const after = await readChangeOutcome(runDirOf(root, current));
			if (decided.has(after)) return { runId: current, outcome: after as StepDecision['outcome'] };
			if (after !== 'superseded') return { runId: current, outcome: 'undecided' };
		}
	} finally {
		listener.dispose();
	}
}

/** The run whose revision replaced `runId`'s change set in the review (its last `supersede` entry). */
async function revisingRun(root: string, runId: string): Promise<string | undefined> {
	const entries = await readChangeLog(runDirOf(root, runId));
	for (const entry of [...entries].reverse()) if (entry.kind === 'supersede') return entry.byRun;
	return undefined;
}
