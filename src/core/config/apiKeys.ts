import { join } from 'node:path';
import { parse } from 'dotenv';
import { keyVariablesFor, presetFor } from '../providers/spec/presets.js';
import type { BackendConfig } from './backendSchema.js';
import { baseUrlVariables } from './baseUrlVariables.js';
import type { ConfigIssue } from './configIssue.js';
import type { ConfigLoadResult } from './loadConfig.js';
import { readRegularTextOrNull } from '../util/regularFile.js';

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

/**
 * The variables a backend's key is looked up under (the providers' preset table), and whether it
 * cannot run without one. Local servers take a key when set but need none; `chatcompletion` on a
 * host of no known vendor (often a local server) gets none: never send one vendor's key to another.
 */
export function apiKeyVariables(backend: Pick<BackendConfig, 'type' | 'base_url'>): {
	variables: string[];
	required: boolean;
} {
	const preset = presetFor(backend.type);
	const variables = [...keyVariablesFor(backend.type, backend.base_url)];
	return { variables, required: variables.length > 0 && !preset?.keyOptional };
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

/**
 * The backend's URL: the config's `base_url`, else (azure_openai) MassGen's variable for it, from
 * secrets, environment or `.env` like a key. Undefined when neither says.
 */
export function resolveBaseUrl(
	backend: Pick<BackendConfig, 'type' | 'base_url'>,
	sources: ApiKeySources,
): string | undefined {
	if (backend.base_url !== undefined) return backend.base_url;
	const variable = Object.hasOwn(baseUrlVariables, backend.type) ? baseUrlVariables[backend.type] : undefined;
	if (variable === undefined) return undefined;
	for (const values of [sources.secrets, sources.env, sources.dotenv]) {
		const url = values?.[variable]?.trim();
		if (url) return url;
	}
	return undefined;
}

/** A `.env` holds a few keys; a larger one is not read (the repository wrote it, not the user). */
const maxDotenvBytes = 1024 * 1024;

/** `<workspaceRoot>/.env` parsed with dotenv; a missing, unreadable, special (FIFO …) or oversized file is `{}`. */
export async function readDotenv(workspaceRoot: string): Promise<Record<string, string>> {
	const text = await readRegularTextOrNull(join(workspaceRoot, '.env'), maxDotenvBytes);
	return text === null ? {} : parse(text);
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
		const path = ['agents', index, 'backend'];
		const pos = result.source?.locate(path, 'key') ?? { line: 1, col: 1 };
		const severity = mode === 'run' ? 'error' : 'warning';
		const at = { severity, file, line: pos.line, col: pos.col, path } as const;
		const issues: ConfigIssue[] = [];
		const urlVariable = baseUrlVariables[agent.backend.type];
		if (urlVariable !== undefined && resolveBaseUrl(agent.backend, sources) === undefined) {
			const message = `agent '${agent.id}': no endpoint: set ${urlVariable} (or base_url in the config)`;
			issues.push({ ...at, code: 'missing-base-url', message });
		}
		const resolved = resolveApiKey(agent.backend, sources);
		if (!resolved.required || resolved.key) return issues;
		const variables = resolved.variables.join(' or ');
		const message = `agent '${agent.id}': no API key: set ${variables} (or api_key in the config)`;
		return [...issues, { ...at, code: 'missing-api-key', message }];
	});
}
