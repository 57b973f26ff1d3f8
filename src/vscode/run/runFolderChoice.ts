import * as vscode from 'vscode';
import { chooseRunFolder, folderOf, folderOfRun } from '../common/runFolders.js';
import type { RunRefusal, RunRequest } from './runTypes.js';

const noWorkspace = (): RunRefusal => ({
	refused: 'no-workspace',
	reason: vscode.l10n.t('open a folder first; the team works on the open workspace'),
});
const notAFolder = (): RunRefusal => ({
	refused: 'no-workspace',
	reason: vscode.l10n.t('the folder asked for is not a folder of this workspace on disk'),
});
const noFolderPicked = (): RunRefusal => ({
	refused: 'cancelled',
	reason: vscode.l10n.t('no folder was picked for the run'),
});

/**
 * The folder a run works on: the request's, the folder of the run it follows up on (`followed`), of
 * the reviewed file, of the active editor, the only one, or the one the user picks.
 */
export async function runFolderFor(
	request: RunRequest,
	followed: string | undefined,
): Promise<vscode.WorkspaceFolder | RunRefusal> {
	if (request.folder) return folderOf(request.folder) ?? notAFolder();
	const following = followed === undefined ? undefined : folderOfRun(followed);
	if (following) return following;
	const chosen = await chooseRunFolder(request.review?.uri);
	if (chosen === 'none') {
		void vscode.window.showErrorMessage(vscode.l10n.t('MassGen: {0}.', noWorkspace().reason));
		return noWorkspace();
	}
	return chosen ?? noFolderPicked();
}
