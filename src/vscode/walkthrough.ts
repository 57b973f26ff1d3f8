import * as vscode from 'vscode';

/** `contributes.walkthroughs[0].id` in package.json. */
export const walkthroughId = 'gettingStarted';
/** globalState flag: the walkthrough was opened once; never again. */
export const walkthroughOpenedKey = 'massgen.walkthroughOpened';

/**
 * Opens the walkthrough on the extension's first activation. VS Code opens a walkthrough itself only
 * when an extension is installed while a window is open; installed any other way (a .vsix before
 * start, settings sync, a development path) it never would. VS Code's own
 * `workbench.welcomePage.walkthroughs.openOnInstall` switches this off too, and extension tests never
 * get it (their fresh state would open it in every run). Opened inactive: the first activation is
 * usually the user's own command (Ask Team's input box must keep the focus).
 */
export async function openWalkthroughOnce(context: vscode.ExtensionContext): Promise<boolean> {
	if (context.globalState.get<boolean>(walkthroughOpenedKey)) return false;
	if (context.extensionMode === vscode.ExtensionMode.Test) return false;
	const enabled = vscode.workspace
		.getConfiguration('workbench.welcomePage.walkthroughs')
		.get<boolean>('openOnInstall', true);
	if (!enabled) return false;
	await context.globalState.update(walkthroughOpenedKey, true);
	await vscode.commands.executeCommand(
		'workbench.action.openWalkthrough',
		`${context.extension.id}#${walkthroughId}`,
		{ inactive: true },
	);
	return true;
}
