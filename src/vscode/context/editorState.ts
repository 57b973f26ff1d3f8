/** A `vscode.TextEditor` described as `editorAttachments` reads it (the one place that maps it). */
import type * as vscode from 'vscode';
import type { EditorState } from './editorAttachments.js';

export function editorStateOf(editor: vscode.TextEditor): EditorState {
	const { document, selection } = editor;
	return {
		scheme: document.uri.scheme,
		fsPath: document.uri.fsPath,
		isDirty: document.isDirty,
		selection: {
			startLine: selection.start.line,
			startCharacter: selection.start.character,
			endLine: selection.end.line,
			endCharacter: selection.end.character,
		},
	};
}
