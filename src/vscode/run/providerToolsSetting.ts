/**
 * `massgen.providerTools` (allow | ask | deny, default ask): the run's one decision on provider-side
 * web search and code execution (issue 15). The strictest of the user, workspace and folder values
 * applies: a cloned repository's settings can refuse the tools, never allow them for the user. `ask`
 * is a modal once per run, before the first request that would enable them (Escape denies).
 */
import * as vscode from 'vscode';
import type {
	ProviderToolsAgent,
	ProviderToolsMode,
	ProviderToolsPolicy,
} from '../../core/providers/providerToolsDecision.js';

export const providerToolsSettingKey = 'massgen.providerTools';
const strictness: readonly ProviderToolsMode[] = ['allow', 'ask', 'deny'];

export function providerToolsPolicy(folder: vscode.Uri): ProviderToolsPolicy {
	const inspected = vscode.workspace
		.getConfiguration(undefined, folder)
		.inspect<unknown>(providerToolsSettingKey);
	const values = [inspected?.globalValue, inspected?.workspaceValue, inspected?.workspaceFolderValue];
	const modes = values.filter((v): v is ProviderToolsMode => strictness.includes(v as ProviderToolsMode));
	const mode = modes.length ? strictness[Math.max(...modes.map((m) => strictness.indexOf(m)))]! : 'ask';
	return { mode, source: providerToolsSettingKey, ...(mode === 'ask' ? { ask } : {}) };
}

async function ask(agents: readonly ProviderToolsAgent[]): Promise<boolean> {
	const allow = 'Allow for This Run';
	const who = agents.map((a) => `${a.agentId} (${a.tools.join(', ')})`).join(', ');
	const choice = await vscode.window.showWarningMessage(
		'MassGen: allow provider-side tools for this run?',
		{
			modal: true,
			detail:
				`${who} would use tools the provider runs on its side, so they cannot be approved call by call. ` +
				`Denied, the agents answer without them. ${providerToolsSettingKey} decides without asking.`,
		},
		allow,
	);
	return choice === allow;
}
