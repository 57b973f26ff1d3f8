/**
 * The first time a run creates `.massgen/` in a git workspace whose `.gitignore` does not name it,
 * offer once to add it. Nothing is written without "Add to .gitignore".
 */
import { join } from 'node:path';
import * as vscode from 'vscode';
import { pathExists } from '../../core/util/pathExists.js';
import { readRegularText } from '../../core/util/regularFile.js';

const neverKey = 'massgen.gitignoreOffer.never';

/** Whether a `.gitignore` text has a line that ignores a top-level `.massgen` folder. */
export function ignoresMassgen(gitignore: string): boolean {
	return gitignore
		.split(/\r?\n/)
		.map((line) => line.trim())
		.some((line) => /^\/?\.massgen\/?(\*\*?)?$/.test(line));
}

/** The question and its three answers; in-host tests answer it themselves. */
export type AskGitignore = (message: string, ...choices: string[]) => Thenable<string | undefined>;

export class GitignoreOffer {
	/** "Not now" (or an offer already made) holds for this window. */
	private readonly _asked = new Set<string>();

	constructor(
		private readonly _memento: vscode.Memento,
		private readonly _ask: AskGitignore = (message, ...choices) =>
			vscode.window.showInformationMessage(message, ...choices),
	) {}

	/** After a run in `folder`: offers, when it is a git workspace that does not ignore `.massgen/`. */
	async maybeOffer(folder: vscode.WorkspaceFolder): Promise<void> {
		const root = folder.uri.fsPath;
		if (this._asked.has(root) || this._memento.get<boolean>(neverKey)) return;
		if (!(await pathExists(join(root, '.git'))) || !(await pathExists(join(root, '.massgen')))) return;
		const gitignore = await readRegularText(join(root, '.gitignore')).catch(() => '');
		if (ignoresMassgen(gitignore)) return;
		this._asked.add(root);
		const add = vscode.l10n.t('Add to .gitignore');
		const never = vscode.l10n.t('Never');
		const choice = await this._ask(
			vscode.l10n.t(
				'MassGen keeps its run logs in {0}/.massgen/. Add it to .gitignore so they are not committed?',
				folder.name,
			),
			add,
			vscode.l10n.t('Not now'),
			never,
		);
		if (choice === never) await this._memento.update(neverKey, true);
		if (choice === add) await appendLine(vscode.Uri.joinPath(folder.uri, '.gitignore'), '.massgen/');
	}
}

/** One undoable edit; the file is saved unless the user had unsaved edits in it. */
async function appendLine(uri: vscode.Uri, line: string): Promise<void> {
	const edit = new vscode.WorkspaceEdit();
	edit.createFile(uri, { ignoreIfExists: true });
	await vscode.workspace.applyEdit(edit);
	const document = await vscode.workspace.openTextDocument(uri);
	const wasDirty = document.isDirty;
	const text = document.getText();
	const end = document.positionAt(text.length);
	const insert = new vscode.WorkspaceEdit();
	insert.insert(uri, end, `${text && !text.endsWith('\n') ? '\n' : ''}${line}\n`);
	await vscode.workspace.applyEdit(insert);
	if (!wasDirty) await document.save();
}
