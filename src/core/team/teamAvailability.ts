import { type ApiKeySources, resolveApiKey } from '../config/apiKeys.js';
import { localServerUrl, unavailableReason } from '../config/defaultTeam.js';
import type { AgentConfig } from '../config/schema.js';
import { probeLocalServer } from './probeLocalServer.js';

/** Why an agent can or cannot run here; the Team view shows it and the default team keeps by it. */
export type AvailabilityKind =
	| 'key-config'
	| 'key-stored'
	| 'key-env'
	| 'key-dotenv'
	| 'key-missing'
	| 'local-up'
	| 'local-down'
	| 'host'
	| 'host-missing'
	| 'scripted'
	| 'no-key-needed';

export interface AgentAvailability {
	readonly id: string;
	readonly provider: string;
	readonly model: string;
	/** The agent's system message, if any. */
	readonly role?: string;
	/** The backend's `base_url`, if set (where its model list is asked for). */
	readonly baseUrl?: string;
	readonly available: boolean;
	readonly kind: AvailabilityKind;
	/** One line, phrased for the user; for an unavailable agent, what to do about it. */
	readonly reason: string;
	/** The variable its key is (or would be) looked up under, for "Set API key". */
	readonly keyVariable?: string;
}

/** The host's own verdict on an agent it provides (the editor's `vscode_lm`), else undefined. */
export type HostVerdict = (
	agent: AgentConfig,
) => { readonly available: boolean; readonly reason: string } | undefined;

export interface AvailabilityInputs {
	readonly keys: ApiKeySources;
	/** Does the OpenAI-compatible server at this base URL answer? (default: `probeLocalServer`) */
	readonly probe?: (baseUrl: string) => Promise<boolean>;
	readonly host?: HostVerdict;
}

const keyKinds = {
	config: ['key-config', () => 'key in the config (api_key)'],
	secrets: ['key-stored', (v: string) => `key stored in VS Code (${v})`],
	env: ['key-env', (v: string) => `key in the environment (${v})`],
	dotenv: ['key-dotenv', (v: string) => `key in the workspace .env (${v})`],
} as const;

/**
 * Whether one agent can run here and why, in the order the default team decides it: the host's
 * models, scripted agents, local servers (probed), then keys (config → secret storage →
 * environment → `.env`). Unavailable reasons are `unavailableReason`'s, so every surface words them alike.
 */
export async function agentAvailability(
	agent: AgentConfig,
	inputs: AvailabilityInputs,
): Promise<AgentAvailability> {
	const { backend } = agent;
	const base = {
		id: agent.id,
		provider: backend.type,
		model: backend.model,
		...(agent.system_message ? { role: agent.system_message } : {}),
		...(backend.base_url ? { baseUrl: backend.base_url } : {}),
	};
	const host = inputs.host?.(agent);
	if (host) {
		return {
			...base,
			available: host.available,
			kind: host.available ? 'host' : 'host-missing',
			reason: host.reason,
		};
	}
	if (backend.type === 'scripted') {
		return { ...base, available: true, kind: 'scripted', reason: 'scripted (no model, no key)' };
	}
	if (backend.type === 'vscode_lm') {
		return { ...base, available: false, kind: 'host-missing', reason: unavailableReason(agent) };
	}
	const url = localServerUrl(backend);
	if (url) {
		const up = await (inputs.probe ?? probeLocalServer)(url);
		const reason = up ? `${backend.type} server answering at ${url}` : unavailableReason(agent);
		return { ...base, available: up, kind: up ? 'local-up' : 'local-down', reason };
	}
	const key = resolveApiKey(backend, inputs.keys);
	const keyVariable = key.variables[0];
	const withVariable = keyVariable ? { keyVariable } : {};
	if (key.key && key.source !== 'none') {
		const [kind, describe] = keyKinds[key.source];
		const variable = key.source === 'config' ? '' : (firstSet(key.variables, inputs.keys, key.source) ?? '');
		return { ...base, ...withVariable, available: true, kind, reason: describe(variable) };
	}
	if (!key.required) return { ...base, available: true, kind: 'no-key-needed', reason: 'needs no key' };
	return {
		...base,
		...withVariable,
		available: false,
		kind: 'key-missing',
		reason: unavailableReason(agent),
	};
}

/** Every agent's availability, probed in parallel, in the config's order. */
export function teamAvailability(
	agents: readonly AgentConfig[],
	inputs: AvailabilityInputs,
): Promise<AgentAvailability[]> {
	return Promise.all(agents.map((agent) => agentAvailability(agent, inputs)));
}

/** The variable that held the key (a Gemini key may sit under `GOOGLE_API_KEY`). */
function firstSet(
	variables: readonly string[],
	keys: ApiKeySources,
	source: 'secrets' | 'env' | 'dotenv',
): string | undefined {
	const values = keys[source];
	return variables.find((variable) => values?.[variable]?.trim());
}
