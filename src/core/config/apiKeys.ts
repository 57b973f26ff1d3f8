import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'dotenv';
import type { BackendConfig, BackendType } from './backendSchema.js';
import type { ConfigIssue } from './configIssue.js';
import type { ConfigLoadResult } from './loadConfig.js';

/** Where keys may come from, besides the config itself; core never reads the environment. */
export interface ApiKeySources {
	/** VS Code SecretStorage, keyed by variable name (`OPENAI_API_KEY`). */
	readonly secrets?: Readonly<Record<string, string>>;
	readonly env: Readonly<Record<string, string | undefined>>;
	/** `<workspace>/.env`, see `readDotenv`. */
	readonly dotenv?: Readonly<Record<string, string>>;
}

export interface ResolvedApiKey {
	readonly key?: string;
	readonly source: 'config' | 'secrets' | 'env' | 'dotenv' | 'none';
	/** MassGen's variable names for this backend, in lookup order. */
	readonly variables: string[];
	/** False for local servers, which run without a key. */
	readonly required: boolean;
}

const variablesByType: Readonly<Partial<Record<BackendType, readonly string[]>>> = {
	openai: ['OPENAI_API_KEY'],
	claude: ['ANTHROPIC_API_KEY'],
	gemini: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
	grok: ['XAI_API_KEY'],
	openrouter: ['OPENROUTER_API_KEY'],
	groq: ['GROQ_API_KEY'],
	together: ['TOGETHER_API_KEY'],
	cerebras: ['CEREBRAS_API_KEY'],
	fireworks: ['FIREWORKS_API_KEY'],
	azure_openai: ['AZURE_OPENAI_API_KEY'],
};

/** Self-hosted servers: a key is used when set, but none is needed (MassGen sends "EMPTY"). */
const optionalByType: Readonly<Partial<Record<BackendType, readonly string[]>>> = {
	vllm: ['VLLM_API_KEY'],
	sglang: ['SGLANG_API_KEY'],
};

/** `chatcompletion` picks its variable from the `base_url` host (massgen-reference §6.1). */
const variablesByHost: readonly (readonly [string, readonly string[]])[] = [
	['api.openai.com', ['OPENAI_API_KEY']],
	['x.ai', ['XAI_API_KEY']],
	['cerebras.ai', ['CEREBRAS_API_KEY']],
	['together.xyz', ['TOGETHER_API_KEY']],
	['fireworks.ai', ['FIREWORKS_API_KEY']],
	['groq.com', ['GROQ_API_KEY']],
	['nebius.com', ['NEBIUS_API_KEY']],
	['openrouter.ai', ['OPENROUTER_API_KEY']],
	['z.ai', ['ZAI_API_KEY']],
	['bigmodel.cn', ['ZAI_API_KEY']],
	['moonshot', ['MOONSHOT_API_KEY', 'KIMI_API_KEY']],
	['poe.com', ['POE_API_KEY']],
	['aliyuncs.com', ['QWEN_API_KEY']],
];

/** The variables a backend's key is looked up under, and whether it cannot run without one. */
export function apiKeyVariables(backend: Pick<BackendConfig, 'type' | 'base_url'>): {
	variables: string[];
	required: boolean;
} {
	const named = variablesByType[backend.type];
	if (named) return { variables: [...named], required: true };
	const optional = optionalByType[backend.type];
	if (optional) return { variables: [...optional], required: false };
	if (backend.type === 'chatcompletion' && backend.base_url) {
		const host = hostOf(backend.base_url);
		// An unknown host (often a local server) gets no key: never send one vendor's key to another.
		const match = variablesByHost.find(([part]) =>
			part.includes('.') ? host === part || host.endsWith(`.${part}`) : host.includes(part),
		);
		if (match) return { variables: [...match[1]], required: true };
	}
	return { variables: [], required: false };
}

/** Looks the key up: config `api_key` → secrets → environment → `.env`. Empty values do not count. */
export function resolveApiKey(
	backend: Pick<BackendConfig, 'type' | 'base_url' | 'api_key'>,
	sources: ApiKeySources,
): ResolvedApiKey {
	const { variables, required } = apiKeyVariables(backend);
	if (backend.api_key) return { key: backend.api_key, source: 'config', variables, required };
	const ordered = [
		['secrets', sources.secrets],
		['env', sources.env],
		['dotenv', sources.dotenv],
	] as const;
	for (const [source, values] of ordered) {
		for (const variable of variables) {
			const key = values?.[variable]?.trim();
			if (key) return { key, source, variables, required };
		}
	}
	return { source: 'none', variables, required };
}

/** `<workspaceRoot>/.env` parsed with dotenv; a missing or unreadable file is `{}`. */
export async function readDotenv(workspaceRoot: string): Promise<Record<string, string>> {
	try {
		return parse(await readFile(join(workspaceRoot, '.env'), 'utf8'));
	} catch {
		return {};
	}
}

/**
 * One issue per agent whose provider needs a key that is nowhere to be found, positioned at its
 * `backend:`. A warning for `validate`, an error for `run` (checked before any call).
 */
export function checkApiKeys(
	result: ConfigLoadResult,
	sources: ApiKeySources,
	mode: 'validate' | 'run',
): ConfigIssue[] {
	if (!result.config) return [];
	const file = result.source?.file ?? '';
	return result.config.agents.flatMap((agent, index): ConfigIssue[] => {
		const resolved = resolveApiKey(agent.backend, sources);
		if (!resolved.required || resolved.key) return [];
		const variables = resolved.variables.join(' or ');
		const path = ['agents', index, 'backend'];
		const pos = result.source?.locate(path, 'key') ?? { line: 1, col: 1 };
		return [
			{
				severity: mode === 'run' ? 'error' : 'warning',
				code: 'missing-api-key',
				message: `agent '${agent.id}': no API key: set ${variables} (or api_key in the config)`,
				file,
				line: pos.line,
				col: pos.col,
				path,
			},
		];
	});
}

function hostOf(url: string): string {
	try {
		return new URL(url).hostname.toLowerCase();
	} catch {
		return '';
	}
}
