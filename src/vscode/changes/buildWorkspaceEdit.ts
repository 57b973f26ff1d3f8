import * as vscode from 'vscode';
import { splitHunks } from '../../core/changes/hunks.js';
import type { FileOp } from '../../core/changes/planFile.js';

export interface EditEntry {
	readonly uri: vscode.Uri;
	readonly op: FileOp;
	/**
	 * The text the op was planned against (the disk's, or a dirty buffer's). A document that does not
	 * show it yet is waited for (see `caughtUp`); without it the document is taken as it is.
	 */
	readonly expected?: string | null;
}

/**
 * One WorkspaceEdit for every file (one undo step). Existing files get minimal text edits on
 * their document, so an open buffer keeps its cursor, folds and unsaved edits elsewhere; new
 * files are created with their content (folders included); deletions are file operations.
 * Returns the documents that were edited, and `stale`: files whose document never showed the
 * text the op was planned against (nothing should be applied then: see `caughtUp`).
 */
export async function buildWorkspaceEdit(
	entries: readonly EditEntry[],
	metadata: vscode.WorkspaceEditEntryMetadata,
): Promise<{ edit: vscode.WorkspaceEdit; documents: vscode.TextDocument[]; stale: vscode.Uri[] }> {
	const edit = new vscode.WorkspaceEdit();
	const documents: vscode.TextDocument[] = [];
	const stale: vscode.Uri[] = [];
	for (const { uri, op, expected } of entries) {
		if (op.kind === 'delete') {
			edit.deleteFile(uri, { ignoreIfNotExists: true }, metadata);
		} else if (op.create) {
			edit.createFile(uri, { overwrite: false, contents: Buffer.from(op.text, 'utf8') }, metadata);
		} else {
			const doc = await vscode.workspace.openTextDocument(uri);
			if (typeof expected === 'string' && !(await caughtUp(doc, expected))) {
				stale.push(uri);
				continue;
			}
			documents.push(doc);
			// The editor strips a UTF-8 BOM from the buffer and writes it back on save.
			const want =
				op.text.startsWith('\uFEFF') && !doc.getText().startsWith('\uFEFF') ? op.text.slice(1) : op.text;
			for (const hunk of splitHunks(doc.getText(), want)) {
				edit.replace(uri, lineRange(doc, hunk.oldStart, hunk.oldStart + hunk.oldLines), hunk.added, metadata);
			}
		}
	}
	return { edit, documents, stale };
}

/** How long a clean document may take to load a file that changed on disk (the editor's watcher). */
const reloadBoundMs = 5_000;

/**
 * Whether the document shows `expected`, waiting for it to get there. A file another program
 * (the CLI's --apply) wrote a moment ago is on disk but not yet in its clean document: edits
 * made from the stale text would land at the wrong lines of the reloaded one. The wait ends on the
 * document's change event; the bound only ends a wait for a reload that never comes.
 */
async function caughtUp(doc: vscode.TextDocument, expected: string): Promise<boolean> {
	const plain = (text: string) => text.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
	const shows = () => plain(doc.getText()) === plain(expected);
	if (shows()) return true;
	return new Promise<boolean>((resolve) => {
		const done = (value: boolean) => {
			listener.dispose();
			clearTimeout(timer);
			resolve(value);
		};
		const listener = vscode.workspace.onDidChangeTextDocument((event) => {
			if (event.document === doc && shows()) done(true);
		});
		const timer = setTimeout(() => done(shows()), reloadBoundMs);
	});
}

/** Files whose document never showed the text on disk: nothing is written (see `caughtUp`). */
export function staleRefusals(uris: readonly vscode.Uri[]): { path: string; reason: string }[] {
	return uris.map((uri) => ({
		path: uri.fsPath,
		reason: `${uri.fsPath} changed on disk and its editor has not loaded the new text yet: try again`,
	}));
}

/** Lines [start, end) of a document; `end` past the last line means its end. */
function lineRange(doc: vscode.TextDocument, start: number, end: number): vscode.Range {
	const at = (line: number) =>
		line < doc.lineCount ? new vscode.Position(line, 0) : doc.lineAt(doc.lineCount - 1).range.end;
	return new vscode.Range(at(start), at(end));
}
