import * as vscode from 'vscode';
import { Disposable } from '../common/lifecycle.js';
import { teamFolder } from './teamFolder.js';

/** Read-only Markdown documents of a folder's leaderboard: `massgen-stats:/<name>.md?<folder uri>`. */
export const statsScheme = 'massgen-stats';

/**
 * "MassGen: Show Team Stats": the report of the leaderboard (core `statsReport`, the renderer
 * `massgen stats` prints with) as a read-only Markdown document, read again each time it is shown,
 * opened in the Markdown preview (the document itself when the preview is not there).
 */
export class StatsDocuments extends Disposable implements vscode.TextDocumentContentProvider {
	private readonly _onDidChange = this._register(new vscode.EventEmitter<vscode.Uri>());
	readonly onDidChange = this._onDidChange.event;

	constructor(private readonly _report: (root: string) => Promise<string>) {
		super();
		this._register(vscode.workspace.registerTextDocumentContentProvider(statsScheme, this));
	}

	async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
		// Only a folder of this window: the query is whatever opened the URI.
		const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.parse(uri.query));
		if (!folder || folder.uri.scheme !== 'file') return '';
		return this._report(folder.uri.fsPath);
	}

	/** Shows the report of the view's folder; its URI (undefined without a folder). */
	async show(): Promise<vscode.Uri | undefined> {
		const folder = teamFolder();
		if (!folder) {
			void vscode.window.showInformationMessage(
				vscode.l10n.t('MassGen: open a folder: the stats come from the runs made in it.'),
			);
			return undefined;
		}
		const uri = vscode.Uri.from({
			scheme: statsScheme,
			path: `/${vscode.l10n.t('Team Stats')}.md`,
			query: folder.uri.toString(),
		});
		// An open document of it reads the runs again.
		this._onDidChange.fire(uri);
		try {
			await vscode.commands.executeCommand('markdown.showPreview', uri);
		} catch {
			await vscode.window.showTextDocument(uri, { preview: true });
		}
		return uri;
	}
}
