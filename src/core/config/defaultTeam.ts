import { apiKeyVariables } from './apiKeys.js';
import type { BackendConfig } from './backendSchema.js';
import type { ConfigIssue } from './configIssue.js';
import type { AgentConfig, MassGenConfig } from './schema.js';

/** Where self-hosted OpenAI-compatible servers listen by default. */
export const defaultLocalBaseUrls: Readonly<Record<string, string>> = {
	ollama: 'http://localhost:11434/v1',
	lmstudio: 'http://localhost:1234/v1',
	vllm: 'http://localhost:8000/v1',
	sglang: 'http://localhost:30000/v1',
};

export interface DroppedAgent {
	readonly id: string;
	readonly why: string;
}

export interface TeamSelection {
	/** Undefined when no agent is left. */
	readonly config: MassGenConfig | undefined;
	readonly dropped: DroppedAgent[];
	/** One error when no agent is left, listing what to set or start. */
	readonly issues: ConfigIssue[];
}

/** The URL a local backend is probed at, or undefined when the backend is not a local server. */
export function localServerUrl(backend: Pick<BackendConfig, 'type' | 'base_url'>): string | undefined {
	if (backend.type in defaultLocalBaseUrls) return backend.base_url ?? defaultLocalBaseUrls[backend.type];
	// A chatcompletion server on a host we do not know a key for is taken to be self-hosted.
	if (backend.type === 'chatcompletion' && !apiKeyVariables(backend).required) return backend.base_url;
	return undefined;
}

/** Why an agent cannot run, phrased as what the user can do about it. */
export function unavailableReason(agent: AgentConfig): string {
	const { backend } = agent;
	if (backend.type === 'vscode_lm') return 'VS Code language models are available only inside VS Code';
	const { variables, required } = apiKeyVariables(backend);
	if (required) return `no API key (set ${variables.join(' or ')})`;
	const url = localServerUrl(backend);
	if (url) return `no ${backend.type} server at ${url} (start it, or set base_url)`;
	return 'not available';
}

/**
 * The default team keeps only the agents whose provider is usable here (a key is set, a local
 * server answers); the caller decides availability. `isAvailable` may explain a refusal with
 * `{ why }`; otherwise `unavailableReason` does.
 */
export function selectAvailableAgents(
	config: MassGenConfig,
	isAvailable: (agent: AgentConfig) => boolean | { readonly why: string },
	file = '',
): TeamSelection {
	const kept: AgentConfig[] = [];
	const dropped: DroppedAgent[] = [];
	for (const agent of config.agents) {
		const verdict = isAvailable(agent);
		if (verdict === true) kept.push(agent);
		else dropped.push({ id: agent.id, why: verdict === false ? unavailableReason(agent) : verdict.why });
	}
	if (kept.length > 0) return { config: { ...config, agents: kept }, dropped, issues: [] };
	const options = dropped.map(({ id, why }) => `${id}: ${why}`).join('; ');
	const issue: ConfigIssue = {
		severity: 'error',
		code: 'no-available-agents',
		message: `no agent of the team is available (${options || 'the team is empty'})`,
		file,
		line: 1,
		col: 1,
		path: ['agents'],
	};
	return { config: undefined, dropped, issues: [issue] };
}
