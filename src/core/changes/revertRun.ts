/**
 * Revert Run without git (docs/sessions.md): undoes what the run's record says Accept wrote. Per file, the
 * last entry that wrote it (the accept, or a later revert) is undone: a file that still hashes to
 * what that entry wrote gets the text it had before; one the user edited since has the entry's
 * hunks reversed three-way (`merge3(base = after, ours = current, theirs = before)`), keeping the
 * user's later edits; what cannot be merged is a conflict, decided by the caller as on Accept.
 * When every accepted file is reverted already, a revert re-applies them (undoes the revert).
 */
import { join } from 'node:path';
import type { ChangeKind } from '../../contract/runEvents.js';
import { assertOwnRun } from '../runStore/ownRuns.js';
import { readOrNull } from '../util/paths.js';
import { type ApplyConflict, type ApplyOptions, applyChanges } from '../workspace/applyChanges.js';
import { sha256 } from '../workspace/sha256.js';
import type { FileChange } from '../../contract/fileChange.js';
import { type LockOptions, withWorkspaceLock } from '../workspace/workspaceLock.js';
import { acceptedFiles, recordFile } from './acceptRecord.js';
import {
	appendChangeLog,
	type ChangeActor,
	type ChangeLogEntry,
	readChangeLog,
	type RecordedFile,
} from '../runStore/changeLog.js';
import type { FileTarget, ReviewFile } from './changeSet.js';
import type { MergeLabels } from './merge3.js';
import { type FileOp, type FilePlan, planFile } from './planFile.js';
import { describeRevertConflict } from './revertReasons.js';

/** `revert` undoes accepted files; `reapply` undoes the revert of a fully reverted run. */
export type RevertMode = 'revert' | 'reapply';

/** The `protected_paths` the run's accepts were checked against (a revert checks its writes against them too). */
export function recordedProtectedPaths(entries: readonly ChangeLogEntry[]): string[] {
	const paths = entries.flatMap((entry) => (entry.kind === 'accept' ? (entry.protectedPaths ?? []) : []));
	return [...new Set(paths)];
}

/** The files a revert works on, each with the last entry that wrote it. */
export interface RevertTargets {
	readonly mode: RevertMode;
	readonly files: readonly RecordedFile[];
}

/** What a Revert Run would do now: still-applied files are reverted, else everything is re-applied; null = nothing was accepted. */
export function revertTargets(entries: readonly ChangeLogEntry[]): RevertTargets | null {
	const states = [...acceptedFiles(entries).values()];
	const applied = states.filter((state) => state.applied);
	if (applied.length > 0) return { mode: 'revert', files: applied.map((state) => state.last) };
	return states.length > 0 ? { mode: 'reapply', files: states.map((state) => state.last) } : null;
}

/**
 * How to undo one recorded write given the file's current text (buffer or disk; null = no file):
 * the same outcomes as Accept's `planFile`, with the entry's `after` as the base and its `before`
 * as the target. A file recorded by hash only (over the cap) can be reverted only if it already is.
 */
export function planRevertFile(
	recorded: RecordedFile,
	current: string | null,
	labels?: MergeLabels,
): FilePlan {
	const { path } = recorded;
	if (recorded.oversize) {
		const now = current === null ? null : sha256(current);
		if (now === recorded.beforeSha256) return { path, outcome: 'already' };
		return { path, outcome: 'conflict', reason: 'too-large', resolution: null, conflicts: 1 };
	}
	if (recorded.before === null && recorded.after === null) return { path, outcome: 'already' };
	const kind: ChangeKind = recorded.after === null ? 'add' : recorded.before === null ? 'delete' : 'modify';
	const file: ReviewFile = {
		path,
		kind,
		baseHash: recorded.afterSha256,
		base: recorded.after ?? '',
		final: recorded.before,
		hunks: [],
		alternatives: [],
		renamedFrom: null,
	};
	const target: FileTarget =
		recorded.before === null ? { op: 'delete' } : { op: 'write', text: recorded.before };
	return planFile(file, target, current, sha256, labels);
}

/**
 * The conflict-marker labels of a revert (the user's side first, as on Accept); `run` names the
 * run: its id in the CLI, its quoted question in the editor.
 */
export function revertLabels(run: string, mode: RevertMode): MergeLabels {
	return {
		ours: 'Current (your edits)',
		theirs: `${mode === 'revert' ? 'Revert of' : 'Re-applied'} MassGen run ${run}`,
	};
}

export interface RevertApplyOptions extends Pick<ApplyOptions, 'protectedPaths' | 'secrets'> {
	readonly runId: string;
	readonly by: ChangeActor;
	/** Write conflicts with markers (a deleted file recreated, a file the user edited kept) instead of stopping. */
	readonly markers?: boolean;
	/** The workspace lock held from reading the record to recording the revert (default: `massgen revert`). */
	readonly lock?: LockOptions;
}

export interface RevertResult {
	/** `none`: the run has no recorded accept; `conflicts`: nothing was written (see `conflicts`). */
	readonly status: 'reverted' | 'conflicts' | 'none';
	readonly mode: RevertMode | null;
	/** Paths written or deleted. */
	readonly written: readonly string[];
	/** Reverted by reversing the team's hunks around the user's later edits. */
	readonly merged: readonly string[];
	/** Written with conflict markers (`markers` only). */
	readonly marked: readonly string[];
	/** Conflicts left as the user has them (`markers` only: a file the accept created and the user edited, an oversize file). */
	readonly kept: readonly string[];
	readonly conflicts: readonly ApplyConflict[];
}

/**
 * The CLI's revert: plans every file against the disk, and with a conflict (and no `markers`)
 * writes nothing; otherwise writes through `applyChanges` (each file re-checked against what it
 * was planned on, every path re-resolved) and records a `revert` entry of what it wrote, all under
 * the workspace lock.
 */
export async function revertRunOnDisk(
	root: string,
	runDir: string,
	options: RevertApplyOptions,
): Promise<RevertResult> {
	// A changes log that came with the folder would write its `before` texts into the workspace.
	await assertOwnRun(root, options.runId, 'reverted');
	// The record is read under the lock too: an accept or revert landing meanwhile is part of the plan.
	return withWorkspaceLock(root, options.lock ?? { tool: 'massgen revert' }, () =>
		revertLocked(root, runDir, options),
	);
}

async function revertLocked(
	root: string,
	runDir: string,
	options: RevertApplyOptions,
): Promise<RevertResult> {
	const empty = { written: [], merged: [], marked: [], kept: [], conflicts: [] };
	const targets = revertTargets(await readChangeLog(runDir));
	if (targets === null) return { status: 'none', mode: null, ...empty };
	const { mode } = targets;
	const labels = revertLabels(options.runId, mode);
	const planned = await Promise.all(
		targets.files.map(async (recorded) => {
			const current = await readOrNull(join(root, recorded.path));
			return { current, plan: planRevertFile(recorded, current, labels) };
		}),
	);
	const conflicts = planned.flatMap(({ plan }) =>
		plan.outcome === 'conflict' ? [{ path: plan.path, reason: describeRevertConflict(plan.reason) }] : [],
	);
	if (conflicts.length > 0 && !options.markers) return { status: 'conflicts', mode, ...empty, conflicts };

	const writes = planned.flatMap(({ current, plan }) => {
		const op = opOf(plan);
		return op === null ? [] : [{ current, op, plan }];
	});
	const result = await applyChanges(
		root,
		writes.map(({ current, op, plan }) => toChange(plan.path, current, op)),
		options,
	);
	const landed = writes.filter(({ plan }) => result.applied.includes(plan.path));
	// Files that already are what the revert makes them count as reverted too, so the next revert re-applies.
	const files = [
		...landed.map(({ current, op, plan }) =>
			recordFile(plan.path, current, op.kind === 'delete' ? null : op.text),
		),
		...planned.flatMap(({ current, plan }) =>
			plan.outcome === 'already' ? [recordFile(plan.path, current, current)] : [],
		),
	];
	if (files.length > 0) await appendChangeLog(runDir, { kind: 'revert', by: options.by, mode, files });
	const paths = (keep: (plan: FilePlan) => boolean) =>
		landed.filter(({ plan }) => keep(plan)).map(({ plan }) => plan.path);
	return {
		// A link that appeared between the checks and a write stops the rest (what was written is recorded).
		status: result.conflicts.length > 0 ? 'conflicts' : 'reverted',
		mode,
		written: result.applied,
		merged: paths((plan) => plan.outcome === 'merged'),
		marked: paths((plan) => plan.outcome === 'conflict' && plan.reason !== 'deleted'),
		kept: planned.flatMap(({ plan }) =>
			plan.outcome === 'conflict' && plan.resolution === null ? [plan.path] : [],
		),
		conflicts: result.conflicts,
	};
}

/** What a plan writes: its op, or a conflict's resolution (markers, a recreated file); null = nothing. */
function opOf(plan: FilePlan): FileOp | null {
	if (plan.outcome === 'apply' || plan.outcome === 'merged') return plan.op;
	return plan.outcome === 'conflict' ? plan.resolution : null;
}

function toChange(path: string, current: string | null, op: FileOp): FileChange {
	const kind: ChangeKind = current === null ? 'add' : op.kind === 'delete' ? 'delete' : 'modify';
	return {
		path,
		kind,
		baseHash: current === null ? null : sha256(current),
		base: current,
		content: op.kind === 'delete' ? null : op.text,
	};
}
