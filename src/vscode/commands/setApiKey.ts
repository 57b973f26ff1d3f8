import * as vscode from 'vscode';
import { keyProviders, type KeyStore } from '../secrets.js';

interface ProviderItem extends vscode.QuickPickItem {
	readonly variable: string;
	readonly stored: boolean;
}

/**
 * "MassGen: Set API Key": pick a provider, type the key into a password box; for a stored key,
 * replace or remove it. Keys live in SecretStorage under the provider's variable name.
 */
export async function setApiKey(keys: KeyStore, env: NodeJS.ProcessEnv = process.env): Promise<void> {
	const items: ProviderItem[] = await Promise.all(
		keyProviders.map(async (provider): Promise<ProviderItem> => {
			const stored = await keys.has(provider.variable);
			const state = stored ? 'stored' : env[provider.variable]?.trim() ? 'from the environment' : 'not set';
			return {
				label: provider.label,
				description: `${provider.variable} · ${state}`,
				detail: `Used by backend type: ${provider.types}`,
				variable: provider.variable,
				stored,
			};
		}),
	);
	const picked = await vscode.window.showQuickPick(items, {
		title: 'MassGen: Set API Key',
		placeHolder: 'Which provider? Keys are kept in VS Code secret storage.',
		matchOnDescription: true,
		// The walkthrough opening on the first activation (or the user fetching a key) must not close it.
		ignoreFocusOut: true,
	});
	if (!picked) return;
	if (picked.stored) {
		const action = await vscode.window.showQuickPick(
			[
				{ label: 'Replace Key', id: 'replace' },
				{ label: 'Remove Key', id: 'remove', description: `Forget the stored ${picked.variable}` },
			],
			{ title: `MassGen: ${picked.label} API Key`, ignoreFocusOut: true },
		);
		if (!action) return;
		if (action.id === 'remove') {
			await keys.remove(picked.variable);
			void vscode.window.showInformationMessage(`MassGen: removed the stored ${picked.variable}.`);
			return;
		}
	}
	const value = await vscode.window.showInputBox({
		title: `MassGen: ${picked.label} API Key`,
		prompt: `Stored in VS Code secret storage as ${picked.variable}; it takes precedence over the environment and .env.`,
		password: true,
		ignoreFocusOut: true,
		validateInput: (text) =>
			text.trim() ? (/\s/.test(text.trim()) ? 'A key has no spaces.' : undefined) : 'Paste the key.',
	});
	if (!value?.trim()) return;
	await keys.set(picked.variable, value);
	void vscode.window.showInformationMessage(`MassGen: stored ${picked.variable}.`);
}
