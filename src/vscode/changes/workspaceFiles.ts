import * as vscode from 'vscode';
import type { FileOp } from '../../core/changes/planFile.js';

/** The text a file has for the user right now: an open dirty buffer, else the disk (null: no file). */
export interface CurrentText {
	readonly text: string | null;
	/** An open buffer with unsaved edits: it is edited, never saved. */
	readonly dirty: boolean;
}

export function openDocument(uri: vscode.Uri): vscode.TextDocument | undefined {
	const key = uri.toString();
	return vscode.workspace.textDocuments.find((doc) => doc.uri.toString() === key);
}

/**
 * Reads a target file. A clean buffer is read from disk so the bytes hash exactly as the core
 * hashed them (a BOM or mixed line endings are not normalised away).
 */
export async function readCurrent(uri: vscode.Uri): Promise<CurrentText> {
	const doc = openDocument(uri);
	if (doc?.isDirty) return { text: doc.getText(), dirty: true };
	return { text: await readDisk(uri), dirty: false };
}

/** A file's text on disk, whatever its buffer holds (what the agents read); null when there is none. */
export async function readDisk(uri: vscode.Uri): Promise<string | null> {
	try {
		// A FIFO (or socket, device) at the path would keep a read waiting forever: refuse it first.
		if (((await vscode.workspace.fs.stat(uri)).type & vscode.FileType.File) === 0) {
			throw new Error(`${uri.fsPath} is not a regular file`);
		}
		return Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('utf8');
	} catch (error) {
		if (error instanceof vscode.FileSystemError && error.code === 'FileNotFound') return null;
		throw error;
	}
}

/** Whether a file now is what the op makes it (the buffer for an edited file, the disk for created and deleted ones). */
export async function hasLanded(uri: vscode.Uri, op: FileOp): Promise<boolean> {
	if (op.kind === 'write' && !op.create) {
		// The editor keeps a document's own line endings and strips a BOM: compare without either.
		const plain = (text: string) => text.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
		return plain((await vscode.workspace.openTextDocument(uri)).getText()) === plain(op.text);
	}
	const current = await readCurrent(uri);
	return op.kind === 'delete' ? current.text === null : current.text === op.text;
}
