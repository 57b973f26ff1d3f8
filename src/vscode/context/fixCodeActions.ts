import * as vscode from 'vscode';
import { commandIds } from '../common/commandIds.js';
import type { FinishedRun, RunService } from '../run/runTypes.js';
import { folderOf } from '../common/runFolders.js';
import { workspacePath } from './editorAttachments.js';
import { fixActionTitle, fixRequest, fixTitle, type EditorDiagnostic } from './fixRequest.js';

/**
 * "Ask MassGen team to fix": a quick fix on every diagnostic of a file in the workspace folder; its
 * command starts a run about it (`fixRequest`).
 */
export class FixCodeActionProvider implements vscode.CodeActionProvider {
	static readonly metadata: vscode.CodeActionProviderMetadata = {
		providedCodeActionKinds: [vscode.CodeActionKind.QuickFix],
	};

	provideCodeActions(
		document: vscode.TextDocument,
		_range: vscode.Range | vscode.Selection,
		context: vscode.CodeActionContext,
	): vscode.CodeAction[] {
		const folder = folderOf(document.uri);
		if (!folder || document.uri.scheme !== 'file') return [];
		if (workspacePath(folder.uri.fsPath, document.uri.fsPath) === undefined) return [];
		return context.diagnostics.map((diagnostic) => {
			const title = fixActionTitle(diagnostic.message, context.diagnostics.length);
			const action = new vscode.CodeAction(title, vscode.CodeActionKind.QuickFix);
			action.diagnostics = [diagnostic];
			action.command = {
				command: commandIds.askTeamToFix,
				title: fixTitle(),
				arguments: [document.uri, [diagnostic]],
			};
			return action;
		});
	}
}

/** Registers the provider for files on disk (any language). */
export function registerFixCodeActions(): vscode.Disposable {
	return vscode.languages.registerCodeActionsProvider(
		{ scheme: 'file' },
		new FixCodeActionProvider(),
		FixCodeActionProvider.metadata,
	);
}

/** The quick fix's command: a run with the diagnostics and the lines around them attached. */
export async function askTeamToFix(
	runs: RunService,
	uri: unknown,
	diagnostics: unknown,
): Promise<FinishedRun | undefined> {
	const folder = uri instanceof vscode.Uri ? folderOf(uri) : undefined;
	if (!(uri instanceof vscode.Uri) || !Array.isArray(diagnostics) || diagnostics.length === 0 || !folder) {
		return undefined;
	}
	const path = workspacePath(folder.uri.fsPath, uri.fsPath);
	if (path === undefined) return undefined;
	const document = await vscode.workspace.openTextDocument(uri);
	const items = (diagnostics as vscode.Diagnostic[]).map(editorDiagnostic);
	// A final newline makes an empty last line, which is no context.
	const last = document.lineCount - 1;
	const lines = last > 0 && document.lineAt(last).text === '' ? last : document.lineCount;
	return runs.start({ ...fixRequest(path, items, lines), folder: folder.uri });
}

/** As plain values (`fixRequest`, the problems picker). */
export function editorDiagnostic(diagnostic: vscode.Diagnostic): EditorDiagnostic {
	const code = typeof diagnostic.code === 'object' ? diagnostic.code.value : diagnostic.code;
	return {
		startLine: diagnostic.range.start.line,
		startCharacter: diagnostic.range.start.character,
		endLine: diagnostic.range.end.line,
		severity: diagnostic.severity,
		message: diagnostic.message,
		...(diagnostic.source ? { source: diagnostic.source } : {}),
		...(code !== undefined ? { code } : {}),
	};
}
