import type { ProviderToolSwitches } from './providerToolSupport.js';

/** What the config layer hands `createModel` for one agent's backend (keys already resolved). */
export interface BackendSettings {
	/** Backend `type` from the YAML (`openai`, `claude`, `gemini`, `chatcompletion`, a preset, `scripted`, …). */
	readonly type: string;
	readonly model: string;
	readonly apiKey?: string;
	/** OpenAI-style: including `/v1`; Anthropic and Gemini: the host root. */
	readonly baseUrl?: string;
	readonly temperature?: number;
	readonly maxTokens?: number;
	/** Provider-native tools the config turned on and this backend supports (before the run's decision). */
	readonly providerTools?: ProviderToolSwitches;
	/** Every other backend key from the YAML (`reasoning`, `text`, `api_version`, …), passed through. */
	readonly options: Readonly<Record<string, unknown>>;
}
