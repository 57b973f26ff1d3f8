/**
 * The chips the "Add Context…" pickers offer (docs/context.md), built from plain descriptions of what VS
 * Code shows (tabs, git changes, diagnostics, terminal commands) so they are testable without it.
 * Secret paths are never offered: the core refuses them anyway, but a chip the run then refuses
 * would only show the user a choice they cannot make.
 */
import * as vscode from 'vscode';
import { randomUUID } from 'node:crypto';
import type { LocalDiffSource } from '../../core/context/attachment.js';
import type { SecretPaths } from '../../core/workspace/secretPaths.js';
import {
	MAX_CHIP_LABEL_CHARS,
	MAX_CHIP_MESSAGE_CHARS,
	type AttachmentChip,
	type ChipRequest,
} from '../../protocol/attachmentChip.js';
import { workspacePath } from './editorAttachments.js';
import { toDiagnostic, type EditorDiagnostic } from './fixRequest.js';

/** A chip with a fresh id; label and detail cut to what the ask box's schema takes. */
export function contextChip(
	label: string,
	request: ChipRequest,
	extra: { detail?: string; thumbnail?: string } = {},
): AttachmentChip {
	return {
		id: `${request.kind}-${randomUUID()}`,
		label: cut(label, 80),
		...(extra.detail ? { detail: cut(extra.detail, MAX_CHIP_LABEL_CHARS) } : {}),
		...(extra.thumbnail ? { thumbnail: extra.thumbnail } : {}),
		request,
	};
}

/** The workspace-relative path of a file the pickers may offer, or why not. */
export function offeredPath(
	folder: string,
	fsPath: string,
	secrets: SecretPaths,
): { readonly path: string } | { readonly refused: string } {
	const path = workspacePath(folder, fsPath);
	if (path === undefined) return { refused: vscode.l10n.t('{0} is outside the workspace folder', fsPath) };
	const secret = secrets.match(path);
	if (secret !== null) {
		return { refused: vscode.l10n.t("'{0}' is a secret path (matches '{1}')", path, secret) };
	}
	return { path };
}

/** A text tab as the picker sees it (`vscode.TabInputText`). */
export interface OpenTab {
	readonly scheme: string;
	readonly fsPath: string;
	readonly isDirty: boolean;
}

/** The open editors that can be attached (each file once), and what was left out. */
export function openEditorPaths(
	folder: string,
	tabs: readonly OpenTab[],
	secrets: SecretPaths,
): { paths: string[]; notes: string[] } {
	const paths = new Set<string>();
	const notes = new Set<string>();
	for (const tab of tabs) {
		if (tab.scheme !== 'file') continue;
		const offered = offeredPath(folder, tab.fsPath, secrets);
		if ('refused' in offered) {
			notes.add(offered.refused);
			continue;
		}
		// The core reads the file from disk: a dirty buffer's text would not be what the team sees.
		if (tab.isDirty) notes.add(vscode.l10n.t('{0} has unsaved changes: save it to attach it', offered.path));
		else paths.add(offered.path);
	}
	return { paths: [...paths].sort(), notes: [...notes] };
}

export function fileChip(path: string): AttachmentChip {
	return contextChip(path, { kind: 'file', path }, { detail: 'file' });
}

/** A file, folder or image picked from the workspace: the core tells them apart by what is on disk. */
export function pathChip(
	path: string,
	what: 'folder' | 'file' | 'image',
	thumbnail?: string,
): AttachmentChip {
	return contextChip(path, { kind: 'path', path }, { detail: what, ...(thumbnail ? { thumbnail } : {}) });
}

/** A change the git extension lists (`Change.uri`, `Change.status`). */
export interface GitChange {
	readonly fsPath: string;
	/** The git extension's `Status` enum. */
	readonly status: number;
}

/** `Status.UNTRACKED` of the git extension: not part of `git diff`. */
const untrackedStatus = 7;

export interface DiffChoice {
	readonly source: LocalDiffSource;
	/** Changed files in the workspace folder the diff shows (secret ones left out). */
	readonly files: readonly string[];
	/** Changed secret files: the core leaves their hunks out (`[left out …]`). */
	readonly secret: number;
	/** Untracked files (the git view lists them; a diff has none). */
	readonly untracked: number;
}

/** What a working-tree or staged diff of the folder would show, as the git view lists it. */
export function diffChoice(
	folder: string,
	source: LocalDiffSource,
	changes: readonly GitChange[],
	secrets: SecretPaths,
): DiffChoice {
	const files = new Set<string>();
	let secret = 0;
	let untracked = 0;
	for (const change of changes) {
		const path = workspacePath(folder, change.fsPath);
		if (path === undefined) continue;
		if (change.status === untrackedStatus) untracked++;
		else if (secrets.match(path) !== null) secret++;
		else files.add(path);
	}
	return { source, files: [...files].sort(), secret, untracked };
}

export function diffLabel(source: LocalDiffSource): string {
	return source === 'staged' ? vscode.l10n.t('staged changes') : vscode.l10n.t('working tree changes');
}

/** `3 files: a.ts, b.ts, c.ts` (and what the diff leaves out). */
export function diffDetail(choice: DiffChoice): string {
	const count = choice.files.length;
	const parts = [
		count === 0
			? vscode.l10n.t('0 files')
			: count === 1
				? vscode.l10n.t('1 file: {0}', choice.files.join(', '))
				: vscode.l10n.t('{0} files: {1}', count, choice.files.join(', ')),
	];
	if (choice.secret) parts.push(vscode.l10n.t('{0} secret file(s) left out', choice.secret));
	if (choice.untracked) parts.push(vscode.l10n.t('{0} untracked file(s) not in a diff', choice.untracked));
	return parts.join('; ');
}

export function diffChip(choice: DiffChoice): AttachmentChip {
	return contextChip(
		diffLabel(choice.source),
		{ kind: 'diff', source: choice.source },
		{ detail: diffDetail(choice) },
	);
}

export interface FileDiagnostics {
	readonly fsPath: string;
	readonly items: readonly EditorDiagnostic[];
}

export interface DiagnosticCaps {
	/** Only errors and warnings (the workspace's); otherwise every severity (the active file's). */
	readonly errorsAndWarnings: boolean;
	readonly maxFiles: number;
	readonly maxItems: number;
}

export const workspaceDiagnosticCaps: DiagnosticCaps = {
	errorsAndWarnings: true,
	maxFiles: 20,
	maxItems: 200,
};
export const fileDiagnosticCaps: DiagnosticCaps = { errorsAndWarnings: false, maxFiles: 1, maxItems: 200 };

/**
 * One `diagnostics` chip per file (positions, severity, message, source and code), most errors
 * first; past the caps, a `text` chip tells the team how many problems it was not given.
 */
export function diagnosticChips(
	folder: string,
	files: readonly FileDiagnostics[],
	secrets: SecretPaths,
	caps: DiagnosticCaps,
): AttachmentChip[] {
	const offered = files.flatMap((file) => {
		const path = workspacePath(folder, file.fsPath);
		if (path === undefined || secrets.match(path) !== null) return [];
		const items = file.items.filter((item) => !caps.errorsAndWarnings || item.severity <= 1);
		return items.length ? [{ path, items }] : [];
	});
	const errors = (items: readonly EditorDiagnostic[]) => items.filter((item) => item.severity === 0).length;
	offered.sort((a, b) => errors(b.items) - errors(a.items) || a.path.localeCompare(b.path));
	const chips: AttachmentChip[] = [];
	let budget = caps.maxItems;
	let leftItems = 0;
	let leftFiles = 0;
	for (const { path, items } of offered) {
		const kept = chips.length < caps.maxFiles ? items.slice(0, budget) : [];
		budget -= kept.length;
		leftItems += items.length - kept.length;
		if (kept.length === 0) {
			leftFiles++;
			continue;
		}
		const diagnostics = kept.map((item) => {
			const diagnostic = toDiagnostic(item);
			return {
				...diagnostic,
				message: cut(diagnostic.message, MAX_CHIP_MESSAGE_CHARS),
				...(diagnostic.source ? { source: cut(diagnostic.source, MAX_CHIP_LABEL_CHARS) } : {}),
			};
		});
		chips.push(
			contextChip(
				vscode.l10n.t('problems in {0}', path),
				{ kind: 'diagnostics', path, items: diagnostics },
				{
					detail: problemCount(kept),
				},
			),
		);
	}
	if (leftItems > 0) {
		// The team reads this note: English, as its prompts are.
		const where = leftFiles ? ` (${leftFiles} more file${leftFiles === 1 ? '' : 's'})` : '';
		const text = `[${leftItems} more problem(s)${where} are not attached: the cap is ${caps.maxItems} problems in ${caps.maxFiles} file(s)]`;
		chips.push(
			contextChip(vscode.l10n.t('{0} more problems not attached', leftItems), {
				kind: 'text',
				source: 'problems',
				text,
			}),
		);
	}
	return chips;
}

function problemCount(items: readonly EditorDiagnostic[]): string {
	const errors = items.filter((item) => item.severity === 0).length;
	const warnings = items.filter((item) => item.severity === 1).length;
	const other = items.length - errors - warnings;
	const parts = [
		errors ? (errors === 1 ? vscode.l10n.t('1 error') : vscode.l10n.t('{0} errors', errors)) : '',
		warnings ? (warnings === 1 ? vscode.l10n.t('1 warning') : vscode.l10n.t('{0} warnings', warnings)) : '',
		other ? vscode.l10n.t('{0} other', other) : '',
	];
	return parts.filter(Boolean).join(', ');
}

/** A finished command of a terminal, as shell integration reported it. */
export interface TerminalExecution {
	readonly terminal: string;
	readonly commandLine: string;
	/** Its output, escape sequences removed. */
	readonly output: string;
	readonly exitCode: number | undefined;
	/** Set when the start of a long output was dropped. */
	readonly cut?: string;
}

/** The command and its output as one `terminal` attachment, labelled with the terminal and the command line. */
export function terminalChip(execution: TerminalExecution): AttachmentChip {
	const { terminal, commandLine, exitCode } = execution;
	const exit = exitCode === undefined ? '' : `\n[exit code ${exitCode}]`;
	const text = `$ ${commandLine}\n${execution.cut ? `${execution.cut}\n` : ''}${execution.output}${exit}`;
	return contextChip(
		`${terminal}: ${commandLine}`,
		{ kind: 'terminal', source: cut(`${terminal}: ${commandLine}`, MAX_CHIP_LABEL_CHARS), text },
		{
			detail:
				exitCode === undefined
					? vscode.l10n.t('terminal output')
					: vscode.l10n.t('terminal output, exit code {0}', exitCode),
		},
	);
}

function cut(text: string, max: number): string {
	return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
