import { dirname, relative, resolve, sep } from 'node:path';
import * as vscode from 'vscode';
import { parsePlanDocument, type PlanDocument, type PlanStep } from '../../core/plans/planDocument.js';
import { PlanError } from '../../core/plans/planError.js';
import { markStep, type StepMark } from '../../core/plans/markStep.js';
import { plansDir, resolvePlan, writePlanText } from '../../core/plans/planStore.js';

/** A plan document of a workspace folder (`<folder>/.massgen/plans/<id>.md`). */
export interface PlanFile {
	readonly uri: vscode.Uri;
	readonly folder: vscode.WorkspaceFolder;
	/** Workspace-relative with `/` separators: what the step's attachment names. */
	readonly relPath: string;
}

/** The same cap as the plan store's (`resolvePlan`): an open buffer is held to it too. */
const maxPlanChars = 1024 * 1024;

/**
 * The plan file for `uri`, or why it is not one. Only a `.md` directly in a folder's
 * `.massgen/plans/` is a plan: Execute Plan ticks its checkboxes, so a command called with any
 * other file (another extension, a crafted link) changes nothing.
 */
export function planFileOf(uri: vscode.Uri): PlanFile | string {
	const folder = vscode.workspace.getWorkspaceFolder(uri);
	if (uri.scheme !== 'file' || !folder) return vscode.l10n.t('{0} is not in a workspace folder.', uri.fsPath);
	const dir = plansDir(folder.uri.fsPath);
	const path = resolve(uri.fsPath);
	if (dirname(path) !== resolve(dir) || !path.endsWith('.md')) {
		return vscode.l10n.t('{0} is not a plan: plans are the .md files in .massgen/plans/.', uri.fsPath);
	}
	return { uri, folder, relPath: relative(folder.uri.fsPath, path).split(sep).join('/') };
}

/** The plan's editor buffer when the document is open (dirty or not). */
function openDocument(file: PlanFile): vscode.TextDocument | undefined {
	return vscode.workspace.textDocuments.find((doc) => doc.uri.toString() === file.uri.toString());
}

/**
 * The plan as it is now. An open document is read from its buffer, unsaved text included, and is
 * not saved: what the user sees is what executes, and saving it for them would write their
 * half-done edit (and run format-on-save) without their word. A closed one is read from disk
 * through the plan store (regular file, size cap). Throws `PlanError` with file:line:col.
 */
export async function readPlan(
	file: PlanFile,
	env: NodeJS.ProcessEnv,
): Promise<{ text: string; doc: PlanDocument }> {
	const open = openDocument(file);
	if (open) {
		const text = open.getText();
		if (text.length > maxPlanChars) throw new PlanError(`${file.relPath}: the plan is over 1 MiB`);
		return { text, doc: parsePlanDocument(text, file.relPath) };
	}
	const read = await resolvePlan(file.folder.uri.fsPath, file.uri.fsPath, env);
	return { text: read.text, doc: read.doc };
}

/**
 * Which step of the plan as it is now is the one that ran (the user may have moved or deleted
 * steps meanwhile): the step at its index if it still has its title, else the first step with
 * that title; undefined when it is gone.
 */
export function stepNow(
	doc: PlanDocument,
	ran: { readonly index: number; readonly title: string },
): PlanStep | undefined {
	const at = doc.steps.find((step) => step.index === ran.index);
	if (at?.title === ran.title) return at;
	return doc.steps.find((step) => step.title === ran.title);
}

/**
 * Marks a step (`markStep`: every other byte kept). An open document gets the mark as a
 * WorkspaceEdit of only the changed lines, so the user's unsaved text survives; it is then saved
 * only if it had nothing unsaved before (the mark reaches the disk; the user's own unsaved edit
 * is theirs to save). A closed one is rewritten on disk (`writePlanText`, atomic). False when the
 * step is no longer in the document.
 */
export async function markPlanStep(
	file: PlanFile,
	ran: { readonly index: number; readonly title: string },
	mark: StepMark,
	env: NodeJS.ProcessEnv,
): Promise<boolean> {
	const open = openDocument(file);
	if (!open) {
		const { text, doc } = await readPlan(file, env);
		const step = stepNow(doc, ran);
		if (!step) return false;
		await writePlanText(file.uri.fsPath, markStep(text, step.index, mark));
		return true;
	}
	const wasDirty = open.isDirty;
	const text = open.getText();
	const step = stepNow(parsePlanDocument(text, file.relPath), ran);
	if (!step) return false;
	const marked = markStep(text, step.index, mark);
	const edit = new vscode.WorkspaceEdit();
	const { start, end, insert } = changedSpan(text, marked);
	edit.replace(open.uri, new vscode.Range(open.positionAt(start), open.positionAt(end)), insert);
	if (!(await vscode.workspace.applyEdit(edit))) return false;
	if (!wasDirty) await open.save();
	return true;
}

/** The one span of `before` that differs from `after` (common prefix and suffix left alone). */
export function changedSpan(before: string, after: string): { start: number; end: number; insert: string } {
	let start = 0;
	const shorter = Math.min(before.length, after.length);
	while (start < shorter && before.charCodeAt(start) === after.charCodeAt(start)) start++;
	let tail = 0;
	while (
		tail < shorter - start &&
		before.charCodeAt(before.length - 1 - tail) === after.charCodeAt(after.length - 1 - tail)
	) {
		tail++;
	}
	return { start, end: before.length - tail, insert: after.slice(start, after.length - tail) };
}
