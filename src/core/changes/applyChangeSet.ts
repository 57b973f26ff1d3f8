import { realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { type ApplyOptions, applyChanges, writeRefusal } from '../workspace/applyChanges.js';
import { readOrNull } from '../util/paths.js';
import { sha256 } from '../workspace/sha256.js';
import type { FileChange } from '../../contract/fileChange.js';
import { type LockOptions, withWorkspaceLock } from '../workspace/workspaceLock.js';
import { recordFile } from './acceptRecord.js';
import { appendChangeLog, type ChangeActor } from '../runStore/changeLog.js';
import { allHunkIds, buildReviewChangeSet, targetOf } from './changeSet.js';
import { planFile, type FilePlan } from './planFile.js';

export interface ApplySetOptions extends Pick<ApplyOptions, 'protectedPaths' | 'secrets'> {
	/** Where the accept is recorded (the run directory's `changes-log.jsonl`), so it can be reverted. */
	readonly record?: { readonly runDir: string; readonly by: ChangeActor };
	/** The workspace lock held from reading the files to recording the accept (default: `massgen apply`, the user's lock folder). */
	readonly lock?: LockOptions;
}

export interface ApplySetResult {
	/** Paths written or deleted. */
	readonly applied: string[];
	/** Files changed by the user in ways that overlap the team's: nothing at all was written. */
	readonly conflicts: { readonly path: string; readonly reason: string }[];
	/** Files where the user's edits and the team's were merged three-way. */
	readonly merged: string[];
}

/**
 * The editor's accept logic without the editor (the CLI's `--apply`): every file is planned with
 * the base-hash check and the three-way merge of `planFile` against the base each change carries
 * (the run snapshot's), so whatever the user changed since is merged or reported, never
 * reverted; if any file conflicts or is refused, nothing is written; otherwise all files are
 * written through `applyChanges`, which checks each file still holds what it was planned against
 * and re-resolves every path as it writes. The whole of it holds the workspace lock.
 */
export async function applyChangeSet(
	root: string,
	runId: string,
	changes: readonly FileChange[],
	options: ApplySetOptions = {},
): Promise<ApplySetResult> {
	// Planned and written under one lock: a concurrent apply (another CLI, the editor's Accept) plans
	// against what this one wrote, so it merges with it or conflicts, and never overwrites it.
	return withWorkspaceLock(root, options.lock ?? { tool: 'massgen apply' }, () =>
		applyLocked(root, runId, changes, options),
	);
}

async function applyLocked(
	root: string,
	runId: string,
	changes: readonly FileChange[],
	options: ApplySetOptions,
): Promise<ApplySetResult> {
	const set = buildReviewChangeSet({ runId, winner: null, changes });
	const plans: FilePlan[] = [];
	/** What each file held when it was planned: the write re-checks it (a file the user saves meanwhile). */
	const planned = new Map<string, string | null>();
	const refused: { path: string; reason: string }[] = [];
	const realRoot = await realpath(root);
	for (const file of set.files) {
		const refusal = await writeRefusal(realRoot, file.path, options);
		if (refusal !== null) refused.push({ path: file.path, reason: refusal });
		const target = targetOf(file, new Set(allHunkIds(file)));
		const current = await readOrNull(join(root, file.path));
		planned.set(file.path, current);
		plans.push(planFile(file, target, current, sha256));
	}
	if (refused.length > 0) return { applied: [], conflicts: refused, merged: [] };
	const conflicts = plans.flatMap((plan) =>
		plan.outcome === 'conflict' ? [{ path: plan.path, reason: describe(plan.reason) }] : [],
	);
	if (conflicts.length > 0) return { applied: [], conflicts, merged: [] };
	const resolved: FileChange[] = plans.flatMap((plan) => {
		if (plan.outcome !== 'apply' && plan.outcome !== 'merged') return [];
		const original = changes.find((change) => change.path === plan.path)!;
		const current = planned.get(plan.path) ?? null;
		const kind = current === null ? 'add' : plan.op.kind === 'delete' ? 'delete' : 'modify';
		const content = plan.op.kind === 'delete' ? null : plan.op.text;
		return [{ ...original, kind, baseHash: current === null ? null : sha256(current), content }];
	});
	// Checked against what was planned, not forced: a file that changes between the plan and the write
	// stops the whole set, before anything is written.
	const written = await applyChanges(root, resolved, options);
	if (options.record) {
		const protectedPaths = [...(options.protectedPaths ?? [])];
		await record(options.record, protectedPaths, plans, planned, resolved, written.applied);
	}
	return {
		applied: written.applied,
		conflicts: written.conflicts,
		merged: plans.filter((plan) => plan.outcome === 'merged').map((plan) => plan.path),
	};
}

/**
 * Appends the accept: every written file with the text it had and the text written, and files
 * that already were what the team proposed. A set stopped midway (a link appeared) records what
 * it wrote, marked partial.
 */
async function record(
	where: NonNullable<ApplySetOptions['record']>,
	protectedPaths: string[],
	plans: readonly FilePlan[],
	planned: ReadonlyMap<string, string | null>,
	resolved: readonly FileChange[],
	applied: readonly string[],
): Promise<void> {
	const files = plans.flatMap((plan) => {
		const before = planned.get(plan.path) ?? null;
		if (plan.outcome === 'already') return [recordFile(plan.path, before, before)];
		if (!applied.includes(plan.path)) return [];
		const after = resolved.find((change) => change.path === plan.path)!.content;
		return [recordFile(plan.path, before, after)];
	});
	if (files.length === 0) return;
	const partial = applied.length < resolved.length;
	await appendChangeLog(where.runDir, { kind: 'accept', by: where.by, partial, protectedPaths, files });
}

function describe(reason: Extract<FilePlan, { outcome: 'conflict' }>['reason']): string {
	switch (reason) {
		case 'overlap':
			return 'you changed it since the team read it, and the changes overlap';
		case 'unseen':
			return 'the team saw it only through a command, its view of the file was not kept, and the file has changed since: compare and accept it by hand';
		case 'deleted':
			return 'it was deleted since the team read it';
		case 'exists':
			return 'the team adds it, but a different file exists there now';
		case 'modified':
			return 'the team deletes it, but you changed it since';
		case 'too-large':
			return 'it is over 8 MiB';
	}
}
