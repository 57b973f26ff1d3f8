import * as vscode from 'vscode';
import type { ConfigIssue } from '../../core/config/configIssue.js';
import { readRegularText } from '../../core/util/regularFile.js';
import { Disposable } from '../common/lifecycle.js';
import { issueSpan } from './issueSpan.js';

/**
 * Config problems as Problems-view diagnostics on the YAML file, each at its line:col. A file
 * that has diagnostics is checked again whenever it is saved, so fixed problems go away.
 */
export class ConfigDiagnostics extends Disposable {
	private readonly _collection = this._register(vscode.languages.createDiagnosticCollection('massgen'));

	constructor(
		/** Re-validates saved text (loaded lazily: the config schema is not needed at activation). */
		private readonly _revalidate: (text: string, file: string) => Promise<readonly ConfigIssue[]>,
	) {
		super();
		this._register(
			vscode.workspace.onDidSaveTextDocument((document) => {
				if (!this._collection.has(document.uri)) return;
				void this._revalidate(document.getText(), document.uri.fsPath).then((issues) =>
					this._collection.set(document.uri, toDiagnostics(issues, document.getText())),
				);
			}),
		);
	}

	/** Replaces the diagnostics of `file` (and of any other file an issue names) with `issues`. */
	async set(file: string, issues: readonly ConfigIssue[]): Promise<void> {
		const byFile = new Map<string, ConfigIssue[]>([[file, []]]);
		for (const issue of issues) {
			byFile.set(issue.file || file, [...(byFile.get(issue.file || file) ?? []), issue]);
		}
		for (const [path, fileIssues] of byFile) {
			const text = await readRegularText(path).catch(() => undefined);
			this._collection.set(vscode.Uri.file(path), toDiagnostics(fileIssues, text));
		}
	}

	get(file: string): readonly vscode.Diagnostic[] {
		return this._collection.get(vscode.Uri.file(file)) ?? [];
	}

	clear(file: string): void {
		this._collection.delete(vscode.Uri.file(file));
	}
}

export function toDiagnostics(issues: readonly ConfigIssue[], text: string | undefined): vscode.Diagnostic[] {
	const lines = text?.split(/\r?\n/);
	return issues.map((issue) => {
		const line = Math.max(0, issue.line - 1);
		const { start, end } = issueSpan(lines?.[line], issue.col);
		const diagnostic = new vscode.Diagnostic(
			new vscode.Range(line, start, line, end),
			issue.message,
			issue.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning,
		);
		diagnostic.source = 'MassGen';
		diagnostic.code = issue.code;
		return diagnostic;
	});
}
