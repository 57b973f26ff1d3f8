import type * as vscode from 'vscode';

/**
 * API keys in VS Code's SecretStorage, stored under MassGen's environment-variable names
 * (`OPENAI_API_KEY`, …) so one name means the same key in the config docs, the shell and here.
 */

export interface KeyProvider {
	readonly label: string;
	/** The variable the key is stored and looked up under. */
	readonly variable: string;
	/** Backend types that use it (shown in the picker). */
	readonly types: string;
}

export const keyProviders: readonly KeyProvider[] = [
	{ label: 'OpenAI', variable: 'OPENAI_API_KEY', types: 'openai' },
	{ label: 'Anthropic', variable: 'ANTHROPIC_API_KEY', types: 'claude' },
	{ label: 'Google Gemini', variable: 'GEMINI_API_KEY', types: 'gemini' },
	{ label: 'xAI', variable: 'XAI_API_KEY', types: 'grok' },
	{ label: 'OpenRouter', variable: 'OPENROUTER_API_KEY', types: 'openrouter' },
	{ label: 'Groq', variable: 'GROQ_API_KEY', types: 'groq' },
	{ label: 'Together AI', variable: 'TOGETHER_API_KEY', types: 'together' },
	{ label: 'Cerebras', variable: 'CEREBRAS_API_KEY', types: 'cerebras' },
	{ label: 'Fireworks AI', variable: 'FIREWORKS_API_KEY', types: 'fireworks' },
	{ label: 'Azure OpenAI', variable: 'AZURE_OPENAI_API_KEY', types: 'azure_openai' },
];

/** Reads and writes the stored keys. Values never reach the log. */
export class KeyStore {
	constructor(private readonly _secrets: Pick<vscode.SecretStorage, 'get' | 'store' | 'delete'>) {}

	/** Every stored key by variable name (only non-empty ones). */
	async getAll(): Promise<Record<string, string>> {
		const entries = await Promise.all(
			keyProviders.map(async (p) => [p.variable, (await this._secrets.get(p.variable))?.trim()] as const),
		);
		return Object.fromEntries(entries.filter((entry): entry is readonly [string, string] => !!entry[1]));
	}

	async has(variable: string): Promise<boolean> {
		return !!(await this._secrets.get(variable))?.trim();
	}

	async set(variable: string, value: string): Promise<void> {
		await this._secrets.store(variable, value.trim());
	}

	async remove(variable: string): Promise<void> {
		await this._secrets.delete(variable);
	}
}
