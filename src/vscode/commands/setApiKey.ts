import * as vscode from 'vscode';
import { keyProviders, type KeyStore } from '../common/secrets.js';
import { InputChain } from './inputChain.js';

interface ProviderItem extends vscode.QuickPickItem {
	readonly variable: string;
	readonly stored: boolean;
}

/**
 * "MassGen: Set API Key": pick a provider, type the key into a password box; for a stored key,
 * replace or remove it. Keys live in SecretStorage under the provider's variable name. Resolves
 * to the variable whose key was stored (undefined: none was, e.g. cancelled or removed).
 */
export async function setApiKey(
	keys: KeyStore,
	env: NodeJS.ProcessEnv = process.env,
): Promise<string | undefined> {
	const chain = new InputChain();
	try {
		return await askAndStore(chain, keys, env);
	} finally {
		chain.dispose();
	}
}

async function askAndStore(
	chain: InputChain,
	keys: KeyStore,
	env: NodeJS.ProcessEnv,
): Promise<string | undefined> {
	const items: ProviderItem[] = await Promise.all(
		keyProviders.map(async (provider): Promise<ProviderItem> => {
			const stored = await keys.has(provider.variable);
			const state = stored
				? vscode.l10n.t('stored')
				: env[provider.variable]?.trim()
					? vscode.l10n.t('from the environment')
					: vscode.l10n.t('not set');
			return {
				label: provider.label,
				description: `${provider.variable} · ${state}`,
				detail: vscode.l10n.t('Used by backend type: {0}', provider.types),
				variable: provider.variable,
				stored,
			};
		}),
	);
	const picked = await chain.pick(items, {
		title: vscode.l10n.t('MassGen: Set API Key'),
		placeholder: vscode.l10n.t('Which provider? Keys are kept in VS Code secret storage.'),
		matchOnDescription: true,
	});
	if (!picked) return;
	if (picked.stored) {
		const action = await chain.pick(
			[
				{ label: vscode.l10n.t('Replace Key'), id: 'replace' },
				{
					label: vscode.l10n.t('Remove Key'),
					id: 'remove',
					description: vscode.l10n.t('Forget the stored {0}', picked.variable),
				},
			],
			{ title: vscode.l10n.t('MassGen: {0} API Key', picked.label) },
		);
		if (!action) return;
		if (action.id === 'remove') {
			chain.dispose();
			await keys.remove(picked.variable);
			void vscode.window.showInformationMessage(
				vscode.l10n.t('MassGen: removed the stored {0}.', picked.variable),
			);
			return;
		}
	}
	const value = await chain.input({
		title: vscode.l10n.t('MassGen: {0} API Key', picked.label),
		prompt: vscode.l10n.t(
			'Stored in VS Code secret storage as {0}; it takes precedence over the environment and .env.',
			picked.variable,
		),
		password: true,
		validate: (text) =>
			text.trim()
				? /\s/.test(text.trim())
					? vscode.l10n.t('A key has no spaces.')
					: undefined
				: vscode.l10n.t('Paste the key.'),
	});
	chain.dispose();
	if (!value?.trim()) return;
	await keys.set(picked.variable, value);
	void vscode.window.showInformationMessage(vscode.l10n.t('MassGen: stored {0}.', picked.variable));
	return picked.variable;
}
