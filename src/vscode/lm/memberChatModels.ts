import * as vscode from 'vscode';

/** The vendor our teams are listed under in VS Code's model picker (`contributes.languageModelChatProviders`). */
export const massgenVendor = 'massgen';

/**
 * VS Code's chat models a team may take as members (`type: vscode_lm`), the default team's added
 * members, the builder's choices and the walkthrough's "a model is ready": every vendor's but ours.
 * A MassGen team is never a member of a team (it would run a team inside a run, which waits for
 * the one run slot it holds).
 */
export async function memberChatModels(): Promise<vscode.LanguageModelChat[]> {
	return (await vscode.lm.selectChatModels()).filter((model) => model.vendor !== massgenVendor);
}
