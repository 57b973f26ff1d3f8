import * as vscode from 'vscode';
import { recordFile } from '../../core/changes/acceptRecord.js';
import { appendChangeLog, readChangeLog, type RecordedFile } from '../../core/runStore/changeLog.js';
import type { FileOp, FilePlan } from '../../core/changes/planFile.js';
import {
	planRevertFile,
	type RevertMode,
	revertLabels,
	revertTargets,
} from '../../core/changes/revertRun.js';
import { writeRefusal } from '../../core/workspace/applyChanges.js';
import {
	acquireWorkspaceLock,
	type HeldLock,
	WorkspaceLockedError,
} from '../../core/workspace/workspaceLock.js';
import type { WritePolicy } from '../run/runTypes.js';
import { buildWorkspaceEdit, staleRefusals } from './buildWorkspaceEdit.js';
import type { RevertPrompts } from './changePrompts.js';
import { hasLanded, readCurrent } from './workspaceFiles.js';

export interface RevertInput {
	readonly runId: string;
	/** The run by its question (`runName`): the undo label and the conflict markers name it so. */
	readonly name: string;
	readonly runDir: string;
	/** The workspace folder the run's paths are relative to. */
	readonly folder: vscode.Uri;
	readonly policy: WritePolicy;
	readonly prompts: RevertPrompts;
}

export interface RevertOutcome {
	/**
	 * `none`: nothing accepted to revert; `cancelled`: the user backed out of the conflict question;
	 * `unsafe`: a target may not be written now (its path is refused, another MassGen write held the
	 * workspace's lock for the whole wait, or a file or the run's record changed while the user
	 * decided); `refused`: the editor did not apply the edit.
	 * In all of these nothing was written.
	 */
	readonly status: 'reverted' | 'none' | 'cancelled' | 'unsafe' | 'refused';
	readonly mode: RevertMode | null;
	readonly written: readonly string[];
	/** Reverted around the user's later edits (the team's hunks reversed three-way). */
	readonly merged: readonly string[];
	/** Given conflict markers (unsaved). */
	readonly marked: readonly string[];
	/** Conflicts left as the user has them (skipped, or a created file the user changed since). */
	readonly kept: readonly string[];
	readonly unsafe: readonly { readonly path: string; readonly reason: string }[];
	/** Why the revert could not be recorded (the edit stays applied). */
	readonly unrecorded?: string;
}

const nothing = { written: [], merged: [], marked: [], kept: [], unsafe: [] } as const;

/**
 * Revert Run in the editor: plans every file of the run's record against the user's current text
 * (dirty buffer, else disk), asks about conflicts as Accept does, re-checks every target's path,
 * then applies ONE WorkspaceEdit (one undo step), saves only documents that had no unsaved edits
 * and records a `revert` entry of what landed.
 */
export async function revertAccepted(input: RevertInput): Promise<RevertOutcome> {
	const entriesBefore = await readChangeLog(input.runDir);
	const targets = revertTargets(entriesBefore);
	if (targets === null) return { status: 'none', mode: null, ...nothing };
	const { mode } = targets;
	const uri = (path: string) => vscode.Uri.joinPath(input.folder, ...path.split('/'));
	const labels = revertLabels(input.name, mode);
	const plans: { plan: FilePlan; dirty: boolean; before: string | null }[] = [];
	for (const recorded of targets.files) {
		const current = await readCurrent(uri(recorded.path));
		plans.push({
			plan: planRevertFile(recorded, current.text, labels),
			dirty: current.dirty,
			before: current.text,
		});
	}
	const conflicts = plans.flatMap(({ plan }) => (plan.outcome === 'conflict' ? [plan] : []));
	const writable = plans.filter(({ plan }) => plan.outcome === 'apply' || plan.outcome === 'merged').length;
	let choice: 'resolve' | 'skip' | undefined;
	if (conflicts.length > 0) {
		choice = await input.prompts.conflicts(
			conflicts.map(({ path, reason }) => ({ path, reason })),
			writable,
		);
		if (choice === undefined) return { status: 'cancelled', mode, ...nothing };
	}

	const entries: RevertEntry[] = [];
	const kept: string[] = [];
	for (const { plan, dirty, before } of plans) {
		if (plan.outcome === 'apply' || plan.outcome === 'merged') {
			entries.push({ path: plan.path, op: plan.op, dirty, marked: false, before });
		} else if (plan.outcome === 'conflict') {
			if (choice === 'resolve' && plan.resolution) {
				entries.push({
					path: plan.path,
					op: plan.resolution,
					dirty,
					marked: plan.reason !== 'deleted',
					before,
				});
			} else kept.push(plan.path);
		}
	}
	// Files already as the revert makes them count as reverted, so the next Revert Run re-applies.
	const already: RecordedFile[] = plans.flatMap(({ plan, before }) =>
		plan.outcome === 'already' ? [recordFile(plan.path, before, before)] : [],
	);
	if (entries.length === 0) {
		return { status: 'reverted', mode, ...nothing, kept, ...(await record(input, mode, already)) };
	}

	// As Accept: no other MassGen write lands between the re-check and the record (VS Code's own write
	// stays the editor's, ordered by the lock, not made atomic by it).
	let lock: HeldLock;
	try {
		lock = await acquireWorkspaceLock(input.policy.root, { tool: 'VS Code Revert Run', waitMs: 30_000 });
	} catch (error) {
		if (!WorkspaceLockedError.is(error)) throw error;
		return { status: 'unsafe', mode, ...nothing, unsafe: [{ path: '.', reason: error.message }] };
	}
	try {
		const changed = await changedSincePlanned(input, entriesBefore.length, entries, uri);
		if (changed.length > 0) return { status: 'unsafe', mode, ...nothing, unsafe: changed };
		return await writeRevert(input, mode, plans, entries, kept, already, uri);
	} finally {
		await lock.release();
	}
}

type RevertEntry = { path: string; op: FileOp; dirty: boolean; marked: boolean; before: string | null };

/**
 * Under the lock: a file that changed since it was planned, or a record that gained an entry (an
 * accept or revert landed while the user decided), stops the revert; nothing is written and it can
 * simply be run again against what is there now.
 */
async function changedSincePlanned(
	input: RevertInput,
	recordLength: number,
	entries: readonly RevertEntry[],
	uri: (path: string) => vscode.Uri,
): Promise<{ path: string; reason: string }[]> {
	if ((await readChangeLog(input.runDir)).length !== recordLength) {
		return [{ path: '.', reason: "the run's record changed meanwhile: revert again" }];
	}
	const changed: { path: string; reason: string }[] = [];
	for (const entry of entries) {
		if ((await readCurrent(uri(entry.path))).text === entry.before) continue;
		changed.push({
			path: entry.path,
			reason: `'${entry.path}' changed while the revert was pending: revert again`,
		});
	}
	return changed;
}

async function writeRevert(
	input: RevertInput,
	mode: RevertMode,
	plans: readonly { plan: FilePlan }[],
	entries: readonly RevertEntry[],
	kept: string[],
	already: RecordedFile[],
	uri: (path: string) => vscode.Uri,
): Promise<RevertOutcome> {
	const unsafe: { path: string; reason: string }[] = [];
	for (const entry of entries) {
		const reason = await writeRefusal(input.policy.root, entry.path, {
			protectedPaths: input.policy.protectedPaths,
			secrets: input.policy.secretPaths,
		});
		if (reason !== null) unsafe.push({ path: entry.path, reason });
	}
	if (unsafe.length > 0) return { status: 'unsafe', mode, ...nothing, unsafe };

	const metadata: vscode.WorkspaceEditEntryMetadata = {
		label:
			mode === 'revert'
				? vscode.l10n.t('MassGen: revert {0}', input.name)
				: vscode.l10n.t('MassGen: re-apply {0}', input.name),
		needsConfirmation: false,
		iconPath: new vscode.ThemeIcon('discard'),
	};
	const { edit, stale } = await buildWorkspaceEdit(
		entries.map((entry) => ({ uri: uri(entry.path), op: entry.op, expected: entry.before })),
		metadata,
	);
	if (stale.length > 0) return { status: 'unsafe', mode, ...nothing, unsafe: staleRefusals(stale) };
	if (!(await vscode.workspace.applyEdit(edit))) return { status: 'refused', mode, ...nothing };
	const landed: RevertEntry[] = [];
	for (const entry of entries) if (await hasLanded(uri(entry.path), entry.op)) landed.push(entry);
	if (landed.length === 0) return { status: 'refused', mode, ...nothing };
	// Nothing saved behind the user's back: dirty buffers and conflict markers stay unsaved.
	for (const entry of landed) {
		if (entry.op.kind !== 'write' || entry.op.create || entry.dirty || entry.marked) continue;
		const doc = await vscode.workspace.openTextDocument(uri(entry.path));
		if (doc.isDirty) await doc.save();
	}
	const wrote: RecordedFile[] = [];
	for (const entry of landed) {
		wrote.push(recordFile(entry.path, entry.before, (await readCurrent(uri(entry.path))).text));
	}
	const merged = new Set(plans.flatMap(({ plan }) => (plan.outcome === 'merged' ? [plan.path] : [])));
	return {
		status: 'reverted',
		mode,
		written: landed.map((entry) => entry.path),
		merged: landed.filter((entry) => merged.has(entry.path)).map((entry) => entry.path),
		marked: landed.filter((entry) => entry.marked).map((entry) => entry.path),
		kept: [...kept, ...entries.filter((entry) => !landed.includes(entry)).map((entry) => entry.path)],
		unsafe: [],
		...(await record(input, mode, [...wrote, ...already])),
	};
}

/** Appends the revert to the run's record; a failure is reported, never thrown (the edit is applied already). */
async function record(
	input: RevertInput,
	mode: RevertMode,
	files: readonly RecordedFile[],
): Promise<{ unrecorded?: string }> {
	if (files.length === 0) return {};
	try {
		await appendChangeLog(input.runDir, { kind: 'revert', by: 'editor', mode, files: [...files] });
		return {};
	} catch (error) {
		return { unrecorded: error instanceof Error ? error.message : String(error) };
	}
}
