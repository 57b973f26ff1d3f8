import * as vscode from 'vscode';
import { type AcceptChoices, acceptChoices } from '../../core/changes/acceptChoices.js';
import { recordFile } from '../../core/changes/acceptRecord.js';
import { appendChangeLog, type RecordedFile } from '../../core/runStore/changeLog.js';
import { allHunkIds, type FileTarget, type ReviewFile, targetOf } from '../../core/changes/changeSet.js';
import { type FileOp, type FilePlan, planFile } from '../../core/changes/planFile.js';
import { writeRefusal } from '../../core/workspace/applyChanges.js';
import { sha256 } from '../../core/workspace/sha256.js';
import {
	acquireWorkspaceLock,
	type HeldLock,
	WorkspaceLockedError,
} from '../../core/workspace/workspaceLock.js';
import type { AcceptRequest } from '../../protocol/messages.js';
import { runName } from '../common/runName.js';
import { buildWorkspaceEdit, staleRefusals } from './buildWorkspaceEdit.js';
import type { ChangePrompts } from './changePrompts.js';
import type { PendingChangeSet } from './pendingChangeSet.js';
import { hasLanded, readCurrent } from './workspaceFiles.js';

/** The request's `paths` (default: every pending file) and `hunks` (override the pending selection), checked against the pending set. */
export interface AcceptInput extends Pick<AcceptRequest, 'paths' | 'hunks'> {
	readonly pending: PendingChangeSet;
	/** Open VS Code's refactor preview before anything is applied (`needsConfirmation`). */
	readonly preview: boolean;
	readonly prompts: ChangePrompts;
}

export interface AcceptResult {
	/**
	 * `cancelled`: the user backed out (nothing written); `rerun`: they asked to re-run the team;
	 * `unsafe`: a target now resolves into `.git/`, a secret or protected path, or out of the
	 * workspace, another MassGen write to the workspace held its lock for the whole wait, or a file
	 * changed while the user decided and now conflicts (nothing written, see `unsafe`);
	 * `refused`: the editor did not apply the edit.
	 */
	readonly status: 'applied' | 'cancelled' | 'rerun' | 'refused' | 'unsafe';
	/** Files no longer pending (written, already up to date, nothing selected, or kept by choice). */
	readonly resolved: readonly string[];
	readonly written: readonly string[];
	/** Written after a clean 3-way merge with the user's edits. */
	readonly merged: readonly string[];
	/** Written with conflict markers for the user to resolve (left unsaved). */
	readonly marked: readonly string[];
	/** Left pending: conflicts the user chose to skip, and changes left out in the refactor preview. */
	readonly skipped: readonly string[];
	/** Targets refused by the path check at write time, with the reason. */
	readonly unsafe: readonly { readonly path: string; readonly reason: string }[];
	/** What each written file was before and became (the record's entries): Undo of the accept is followed by them. */
	readonly landed: readonly RecordedFile[];
	/** Why the accept could not be recorded in the run's `changes-log.jsonl` (so Revert Run cannot undo it). */
	readonly unrecorded?: string;
}

const nothing = {
	resolved: [],
	written: [],
	merged: [],
	marked: [],
	skipped: [],
	unsafe: [],
	landed: [],
} as const;

/**
 * Accepts (part of) a pending change set: checks every target against the base the agents read,
 * merges the user's edits three-way, asks about conflicts, then applies ONE WorkspaceEdit and
 * saves only the documents that had no unsaved edits before.
 */
export async function acceptPending(input: AcceptInput): Promise<AcceptResult> {
	const { pending } = input;
	const wanted = input.paths ? new Set(input.paths) : undefined;
	const files = pending.files().filter((file) => !wanted || wanted.has(file.path));
	const override = new Map((input.hunks ?? []).map((selection) => [selection.path, new Set(selection.ids)]));
	const winner = pending.set.winner?.agentId ?? vscode.l10n.t('the team');
	const labels = {
		ours: vscode.l10n.t('Current (your edits)'),
		theirs: acceptLabel(pending, winner),
	};

	const plans: Planned[] = [];
	/** Part of a file's proposed change is left out: not all of the winner's hunks, or a runner-up's. */
	let partial = false;
	const partialPaths: string[] = [];
	for (const file of files) {
		const selection = override.get(file.path) ?? pending.selected(file.path);
		const all = allHunkIds(file);
		if (selection.size !== all.length || all.some((id) => !selection.has(id))) partialPaths.push(file.path);
		partial ||= partialPaths.includes(file.path);
		const target = targetOf(file, selection);
		const current = await readCurrent(pending.uri(file.path));
		const plan = planFile(file, target, current.text, sha256, labels);
		plans.push({ plan, dirty: current.dirty, before: current.text, file, target });
	}
	const choices = acceptChoices(files, (path) => override.get(path) ?? pending.selected(path));
	const conflicts = plans.flatMap(({ plan }) => (plan.outcome === 'conflict' ? [plan] : []));
	const writable = plans.filter(({ plan }) => plan.outcome === 'apply' || plan.outcome === 'merged').length;
	let choice: 'resolve' | 'skip' | undefined;
	if (conflicts.length > 0) {
		const answer = await input.prompts.conflicts(
			conflicts.map(({ path, reason }) => ({ path, reason })),
			writable,
		);
		if (answer === 'rerun') return { status: 'rerun', ...nothing };
		if (answer === undefined) return { status: 'cancelled', ...nothing };
		choice = answer;
	}

	const entries: Entry[] = [];
	const resolved: string[] = [];
	const skipped: string[] = [];
	for (const { plan, dirty } of plans) {
		if (plan.outcome === 'apply' || plan.outcome === 'merged') {
			entries.push({ path: plan.path, op: plan.op, dirty, marked: false });
		} else if (plan.outcome === 'conflict') {
			if (choice === 'skip') {
				skipped.push(plan.path);
				continue;
			}
			if (plan.resolution) {
				entries.push({ path: plan.path, op: plan.resolution, dirty, marked: plan.reason !== 'deleted' });
			} else partial = true;
		}
		resolved.push(plan.path);
	}
	if (entries.length === 0) {
		const unrecorded = await record(pending, alreadyRecords(plans), { partial, partialPaths, choices });
		return { status: 'applied', ...nothing, resolved, skipped, ...unrecorded };
	}

	// From the re-check to the record, no other MassGen write (the CLI's --apply or revert, another
	// window's Accept) touches the workspace. VS Code's own write (the edit, then the save) is the
	// editor's file service: the lock orders it against ours, it does not make it atomic.
	let lock: HeldLock;
	try {
		lock = await acquireWorkspaceLock(pending.run.writePolicy.root, {
			tool: 'VS Code Accept',
			waitMs: 30_000,
		});
	} catch (error) {
		if (!WorkspaceLockedError.is(error)) throw error;
		return { status: 'unsafe', ...nothing, unsafe: [{ path: '.', reason: error.message }] };
	}
	try {
		const changed = await recheck(pending, plans, entries, { choice, labels });
		if (changed.length > 0) return { status: 'unsafe', ...nothing, unsafe: changed };
		return await write(input, plans, entries, { resolved, skipped, partial, partialPaths, winner, choices });
	} finally {
		await lock.release();
	}
}

interface Planned {
	plan: FilePlan;
	dirty: boolean;
	before: string | null;
	readonly file: ReviewFile;
	readonly target: FileTarget;
}

interface Entry {
	readonly path: string;
	op: FileOp;
	dirty: boolean;
	marked: boolean;
}

/** Files that already were what the accept makes them: recorded, so a revert knows them. */
function alreadyRecords(plans: readonly Planned[]): RecordedFile[] {
	return plans.flatMap(({ plan, before }) =>
		plan.outcome === 'already' ? [recordFile(plan.path, before, before)] : [],
	);
}

/**
 * Under the lock: every file to write is read again, and one that changed since it was planned
 * (another write landed while the user decided) is planned again against what it holds now. A
 * clean merge or apply replaces the entry's op; a new conflict the user was not asked about stops
 * the accept (returned as refusals: nothing is written, the change set stays pending).
 */
async function recheck(
	pending: PendingChangeSet,
	plans: Planned[],
	entries: Entry[],
	context: { choice: 'resolve' | 'skip' | undefined; labels: { ours: string; theirs: string } },
): Promise<{ path: string; reason: string }[]> {
	const changed: { path: string; reason: string }[] = [];
	for (const entry of [...entries]) {
		const planned = plans.find(({ plan }) => plan.path === entry.path)!;
		const now = await readCurrent(pending.uri(entry.path));
		if (now.text === planned.before) continue;
		const plan = planFile(planned.file, planned.target, now.text, sha256, context.labels);
		Object.assign(planned, { plan, dirty: now.dirty, before: now.text });
		if (plan.outcome === 'apply' || plan.outcome === 'merged') {
			Object.assign(entry, { op: plan.op, dirty: now.dirty, marked: false });
		} else if (plan.outcome === 'already' || plan.outcome === 'skip') {
			entries.splice(entries.indexOf(entry), 1);
		} else if (context.choice === 'resolve' && plan.resolution) {
			Object.assign(entry, { op: plan.resolution, dirty: now.dirty, marked: plan.reason !== 'deleted' });
		} else {
			changed.push({
				path: entry.path,
				reason: `'${entry.path}' changed while the accept was pending and now conflicts with the team's change: accept again to merge or resolve it`,
			});
		}
	}
	return changed;
}

/** Checks every path, applies ONE WorkspaceEdit, saves what was not dirty and records what landed. */
async function write(
	input: AcceptInput,
	plans: readonly Planned[],
	entries: readonly Entry[],
	state: {
		resolved: string[];
		skipped: string[];
		partial: boolean;
		partialPaths: string[];
		winner: string;
		choices: AcceptChoices;
	},
): Promise<AcceptResult> {
	const { pending } = input;
	const { resolved, skipped, partial, partialPaths, winner, choices } = state;
	const already = alreadyRecords(plans);
	if (entries.length === 0) {
		const unrecorded = await record(pending, already, { partial, partialPaths, choices });
		return { status: 'applied', ...nothing, resolved, skipped, ...unrecorded };
	}
	// Re-resolved now, right before the edit: a link the tree gained since the run must not redirect a write.
	const { writePolicy } = pending.run;
	const unsafe: { path: string; reason: string }[] = [];
	for (const entry of entries) {
		const reason = await writeRefusal(writePolicy.root, entry.path, {
			protectedPaths: writePolicy.protectedPaths,
			secrets: writePolicy.secretPaths,
		});
		if (reason !== null) unsafe.push({ path: entry.path, reason });
	}
	if (unsafe.length > 0) return { status: 'unsafe', ...nothing, unsafe };

	const metadata: vscode.WorkspaceEditEntryMetadata = {
		label: acceptLabel(pending, winner),
		needsConfirmation: input.preview,
		iconPath: new vscode.ThemeIcon('sparkle'),
	};
	const { edit, stale } = await buildWorkspaceEdit(
		entries.map((entry) => ({
			uri: pending.uri(entry.path),
			op: entry.op,
			expected: plans.find(({ plan }) => plan.path === entry.path)!.before,
		})),
		metadata,
	);
	if (stale.length > 0) return { status: 'unsafe', ...nothing, unsafe: staleRefusals(stale) };
	// No `{ isRefactoring: true }`: with it VS Code's bulk edit service saves every dirty file the
	// edit touched (`files.refactoring.autoSave`, on by default), the user's dirty buffers included.
	// Without it the edit saves nothing; the loop below saves what it should.
	const applied = await vscode.workspace.applyEdit(edit);
	if (!applied) return { status: 'refused', ...nothing };

	// In the refactor preview the user may leave changes out: a file counts as done only when its change fully landed.
	const landed = new Set<string>();
	for (const entry of entries) if (await hasLanded(pending.uri(entry.path), entry.op)) landed.add(entry.path);
	if (landed.size === 0) return { status: 'refused', ...nothing };
	// Save what had no unsaved edits before; the user's dirty buffers, conflict markers and partly applied files stay unsaved.
	for (const entry of entries) {
		if (
			!landed.has(entry.path) ||
			entry.op.kind !== 'write' ||
			entry.op.create ||
			entry.dirty ||
			entry.marked
		) {
			continue;
		}
		const doc = await vscode.workspace.openTextDocument(pending.uri(entry.path));
		if (doc.isDirty) await doc.save();
	}
	const left = entries.filter((entry) => !landed.has(entry.path)).map((entry) => entry.path);
	// What landed, as the user has it now (a dirty buffer's text, else the disk's): what a revert compares against.
	const wrote: RecordedFile[] = [];
	for (const entry of entries) {
		if (!landed.has(entry.path)) continue;
		const before = plans.find(({ plan }) => plan.path === entry.path)!.before;
		wrote.push(recordFile(entry.path, before, (await readCurrent(pending.uri(entry.path))).text));
	}
	const unrecorded = await record(pending, [...wrote, ...already], { partial, partialPaths, choices });
	const merged = plans.flatMap(({ plan }) =>
		plan.outcome === 'merged' && landed.has(plan.path) ? [plan.path] : [],
	);
	return {
		status: 'applied',
		unsafe: [],
		resolved: resolved.filter((path) => !left.includes(path)),
		written: [...landed],
		merged,
		marked: entries.filter((entry) => entry.marked && landed.has(entry.path)).map((entry) => entry.path),
		skipped: [...skipped, ...left],
		landed: wrote,
		...unrecorded,
	};
}

/** The accept as Undo and the conflict markers name it: the run's question and the winner, no run id. */
function acceptLabel(pending: PendingChangeSet, winner: string): string {
	return vscode.l10n.t('MassGen: {0} ({1})', runName(pending.run.request.question), winner);
}

/**
 * Appends the accept to the run's record; a failure is reported, never thrown (the edit is applied
 * already). The runner-up hunks and edited files it names are those of the files it records.
 */
async function record(
	pending: PendingChangeSet,
	files: readonly RecordedFile[],
	{
		partial,
		partialPaths,
		choices,
	}: { partial: boolean; partialPaths: readonly string[]; choices: AcceptChoices },
): Promise<{ unrecorded?: string }> {
	if (files.length === 0) return {};
	const protectedPaths = [...pending.run.writePolicy.protectedPaths];
	const recorded = (path: string) => files.some((file) => file.path === path);
	const runnerUpHunks = choices.runnerUpHunks.filter((hunk) => recorded(hunk.path));
	const editedPaths = choices.editedPaths.filter(recorded);
	try {
		await appendChangeLog(pending.run.runDir, {
			kind: 'accept',
			by: 'editor',
			partial,
			partialPaths: partialPaths.filter(recorded),
			protectedPaths,
			...(runnerUpHunks.length > 0 ? { runnerUpHunks } : {}),
			...(editedPaths.length > 0 ? { editedPaths } : {}),
			files: [...files],
		});
		return {};
	} catch (error) {
		return { unrecorded: error instanceof Error ? error.message : String(error) };
	}
}
