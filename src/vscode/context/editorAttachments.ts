/**
 * What "Ask Team" attaches from the active editor (docs/context.md), from a plain description of the
 * editor so it is testable without VS Code. The core reads the file from disk under the tools'
 * path policy (a secret path is refused there, with the reason); so a buffer whose text is not
 * on disk (untitled, unsaved changes) is left out with a note rather than sent as text, which
 * would bypass that policy.
 */
import * as vscode from 'vscode';
import { isAbsolute, relative, sep } from 'node:path';
import type { AttachmentRequest, LineRange } from '../../core/context/attachment.js';

/** 0-based lines and characters, as `vscode.Selection` has them. */
export interface EditorSelection {
	readonly startLine: number;
	readonly startCharacter: number;
	readonly endLine: number;
	readonly endCharacter: number;
}

export interface EditorState {
	/** `file`, `untitled`, `git`, … */
	readonly scheme: string;
	/** The document's file system path (meaningful for `file`). */
	readonly fsPath: string;
	readonly isDirty: boolean;
	/** Absent or empty: no selection. */
	readonly selection?: EditorSelection;
}

export interface EditorAttachments {
	readonly requests: readonly AttachmentRequest[];
	/** What the input box says is attached ("src/a.ts lines 3–9"); absent when nothing is. */
	readonly label?: string;
	/** Why the editor's file is not attached (for the log and the input box). */
	readonly note?: string;
}

/** The workspace-relative path (`/` separators) of a file inside `folder`, else undefined. */
export function workspacePath(folder: string, fsPath: string): string | undefined {
	const rel = relative(folder, fsPath);
	if (!rel || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return undefined;
	return rel.split(sep).join('/');
}

/**
 * The selection as a 1-based inclusive line range; undefined when it is empty. A selection that
 * ends at the start of a line (whole lines selected) does not include that line.
 */
export function selectionLines(selection: EditorSelection): LineRange | undefined {
	const { startLine, startCharacter, endLine, endCharacter } = selection;
	if (startLine === endLine && startCharacter === endCharacter) return undefined;
	const last = endLine > startLine && endCharacter === 0 ? endLine - 1 : endLine;
	return { start: startLine + 1, end: last + 1 };
}

export function formatLines(range: LineRange): string {
	return range.start === range.end
		? vscode.l10n.t('line {0}', range.start)
		: vscode.l10n.t('lines {0}–{1}', range.start, range.end);
}

/** The active editor's file (and selection) as an attachment request for a run in `folder`. */
export function editorAttachments(folder: string, editor: EditorState | undefined): EditorAttachments {
	if (!editor) return { requests: [] };
	if (editor.scheme === 'untitled') {
		return { requests: [], note: vscode.l10n.t('an untitled editor is not attached') };
	}
	const path = editor.scheme === 'file' ? workspacePath(folder, editor.fsPath) : undefined;
	if (path === undefined) {
		return {
			requests: [],
			note: vscode.l10n.t('{0} is outside the workspace folder: not attached', editor.fsPath),
		};
	}
	if (editor.isDirty) {
		return { requests: [], note: vscode.l10n.t('{0} has unsaved changes: save it to attach it', path) };
	}
	const range = editor.selection && selectionLines(editor.selection);
	return {
		requests: [{ kind: 'file', path, ...(range ? { range } : {}) }],
		label: range ? `${path} ${formatLines(range)}` : path,
	};
}
