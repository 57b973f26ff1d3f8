/** Which wire API an adapter speaks. */
export type WireApi = 'responses' | 'chat-completions' | 'anthropic' | 'gemini';

export interface ProviderPreset {
	readonly api: WireApi;
	/** Default base URL handed to the SDK; undefined = the SDK's own default (or required, see `baseUrlRequired`). */
	readonly baseUrl?: string;
	/** Environment variables to look the key up in, in order (MassGen's names). */
	readonly keyVariables: readonly string[];
	/** Local servers need no key; a placeholder is sent instead. */
	readonly keyOptional?: boolean;
	/** A value to send when no key is configured (OpenAI-compatible local servers). */
	readonly placeholderKey?: string;
	readonly baseUrlRequired?: boolean;
}

/** Backend `type` → defaults, as MassGen has them. */
export const providerPresets: Readonly<Record<string, ProviderPreset>> = {
	openai: { api: 'responses', baseUrl: 'https://api.openai.com/v1', keyVariables: ['OPENAI_API_KEY'] },
	claude: { api: 'anthropic', baseUrl: 'https://api.anthropic.com', keyVariables: ['ANTHROPIC_API_KEY'] },
	gemini: {
		api: 'gemini',
		baseUrl: 'https://generativelanguage.googleapis.com',
		keyVariables: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
	},
	// The key variable follows the base URL's host (`keyVariablesFor`); an unknown host is often a
	// local server, which gets a placeholder key (the config layer reports keys that are required).
	chatcompletion: {
		api: 'chat-completions',
		keyVariables: [],
		baseUrlRequired: true,
		placeholderKey: 'EMPTY',
	},
	grok: { api: 'chat-completions', baseUrl: 'https://api.x.ai/v1', keyVariables: ['XAI_API_KEY'] },
	openrouter: {
		api: 'chat-completions',
		baseUrl: 'https://openrouter.ai/api/v1',
		keyVariables: ['OPENROUTER_API_KEY'],
	},
	groq: {
		api: 'chat-completions',
		baseUrl: 'https://api.groq.com/openai/v1',
		keyVariables: ['GROQ_API_KEY'],
	},
	together: {
		api: 'chat-completions',
		baseUrl: 'https://api.together.xyz/v1',
		keyVariables: ['TOGETHER_API_KEY'],
	},
	cerebras: {
		api: 'chat-completions',
		baseUrl: 'https://api.cerebras.ai/v1',
		keyVariables: ['CEREBRAS_API_KEY'],
	},
	fireworks: {
		api: 'chat-completions',
		baseUrl: 'https://api.fireworks.ai/inference/v1',
		keyVariables: ['FIREWORKS_API_KEY'],
	},
	nebius: {
		api: 'chat-completions',
		baseUrl: 'https://api.studio.nebius.ai/v1',
		keyVariables: ['NEBIUS_API_KEY'],
	},
	moonshot: {
		api: 'chat-completions',
		baseUrl: 'https://api.moonshot.ai/v1',
		keyVariables: ['MOONSHOT_API_KEY', 'KIMI_API_KEY'],
	},
	qwen: {
		api: 'chat-completions',
		baseUrl: 'https://dashscope.aliyuncs.com/compatible-mode/v1',
		keyVariables: ['QWEN_API_KEY'],
	},
	zai: { api: 'chat-completions', keyVariables: ['ZAI_API_KEY'], baseUrlRequired: true },
	poe: { api: 'chat-completions', keyVariables: ['POE_API_KEY'], baseUrlRequired: true },
	lmstudio: {
		api: 'chat-completions',
		baseUrl: 'http://localhost:1234/v1',
		keyVariables: [],
		keyOptional: true,
		placeholderKey: 'lm-studio',
	},
	ollama: {
		api: 'chat-completions',
		baseUrl: 'http://localhost:11434/v1',
		keyVariables: [],
		keyOptional: true,
		placeholderKey: 'ollama',
	},
	vllm: {
		api: 'chat-completions',
		baseUrl: 'http://localhost:8000/v1',
		keyVariables: ['VLLM_API_KEY'],
		keyOptional: true,
		placeholderKey: 'EMPTY',
	},
	sglang: {
		api: 'chat-completions',
		baseUrl: 'http://localhost:30000/v1',
		keyVariables: ['SGLANG_API_KEY'],
		keyOptional: true,
		placeholderKey: 'EMPTY',
	},
	azure_openai: {
		api: 'chat-completions',
		keyVariables: ['AZURE_OPENAI_API_KEY'],
		baseUrlRequired: true,
	},
};

/** `chatcompletion` takes the key variables of the vendor its base URL's host belongs to (as MassGen does). */
const hostVendors: readonly (readonly [RegExp, string])[] = [
	[/(^|\.)cerebras\.ai$/, 'cerebras'],
	[/(^|\.)together\.(xyz|ai)$/, 'together'],
	[/(^|\.)fireworks\.ai$/, 'fireworks'],
	[/(^|\.)groq\.com$/, 'groq'],
	[/(^|\.)nebius\.(com|ai)$/, 'nebius'],
	[/(^|\.)openrouter\.ai$/, 'openrouter'],
	[/(^|\.)(z\.ai|bigmodel\.cn)$/, 'zai'],
	[/(^|\.)moonshot\.(ai|cn)$/, 'moonshot'],
	[/(^|\.)poe\.com$/, 'poe'],
	[/(^|\.)aliyuncs\.com$/, 'qwen'],
	[/(^|\.)x\.ai$/, 'grok'],
	[/(^|\.)openai\.com$/, 'openai'],
];

/** Default settings for a backend type; undefined for types without an adapter here (`scripted`, `vscode_lm`). */
export function presetFor(type: string): ProviderPreset | undefined {
	return Object.hasOwn(providerPresets, type) ? providerPresets[type] : undefined;
}

/**
 * Environment variables to look a key up in for this backend, in order (MassGen's names); the
 * config layer's key lookup and the adapters' error messages both read this one table.
 */
export function keyVariablesFor(type: string, baseUrl?: string): readonly string[] {
	if (type === 'chatcompletion' && baseUrl) {
		let host = '';
		try {
			host = new URL(baseUrl).hostname;
		} catch {
			/* not a URL: fall through to the preset */
		}
		const vendor = hostVendors.find(([pattern]) => pattern.test(host))?.[1];
		if (vendor) return presetFor(vendor)?.keyVariables ?? [];
	}
	return presetFor(type)?.keyVariables ?? [];
}
