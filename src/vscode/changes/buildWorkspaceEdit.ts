import * as vscode from 'vscode';
import { splitHunks } from '../../core/changes/hunks.js';
import type { FileOp } from '../../core/changes/planFile.js';

export interface EditEntry {
	readonly uri: vscode.Uri;
	readonly op: FileOp;
}

/**
 * One WorkspaceEdit for every file (one undo step). Existing files get minimal text edits on
 * their document, so an open buffer keeps its cursor, folds and unsaved edits elsewhere; new
 * files are created with their content (folders included); deletions are file operations.
 * Returns the documents that were edited.
 */
export async function buildWorkspaceEdit(
	entries: readonly EditEntry[],
	metadata: vscode.WorkspaceEditEntryMetadata,
): Promise<{ edit: vscode.WorkspaceEdit; documents: vscode.TextDocument[] }> {
	const edit = new vscode.WorkspaceEdit();
	const documents: vscode.TextDocument[] = [];
	for (const { uri, op } of entries) {
		if (op.kind === 'delete') {
			edit.deleteFile(uri, { ignoreIfNotExists: true }, metadata);
		} else if (op.create) {
			edit.createFile(uri, { overwrite: false, contents: Buffer.from(op.text, 'utf8') }, metadata);
		} else {
			const doc = await vscode.workspace.openTextDocument(uri);
			documents.push(doc);
			// The editor strips a UTF-8 BOM from the buffer and writes it back on save.
			const want =
				op.text.startsWith('\uFEFF') && !doc.getText().startsWith('\uFEFF') ? op.text.slice(1) : op.text;
			for (const hunk of splitHunks(doc.getText(), want)) {
				edit.replace(uri, lineRange(doc, hunk.oldStart, hunk.oldStart + hunk.oldLines), hunk.added, metadata);
			}
		}
	}
	return { edit, documents };
}

/** Lines [start, end) of a document; `end` past the last line means its end. */
function lineRange(doc: vscode.TextDocument, start: number, end: number): vscode.Range {
	const at = (line: number) =>
		line < doc.lineCount ? new vscode.Position(line, 0) : doc.lineAt(doc.lineCount - 1).range.end;
	return new vscode.Range(at(start), at(end));
}
