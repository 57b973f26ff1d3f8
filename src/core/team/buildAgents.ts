import { resolveApiKey, resolveBaseUrl, type ApiKeySources } from '../config/apiKeys.js';
import { selectAvailableAgents, type TeamSelection } from '../config/defaultTeam.js';
import type { CodingAgentPaths } from '../util/cliPathVariables.js';
import type { AgentConfig, MassGenConfig } from '../config/schema.js';
import { toBackendSettings } from '../config/toSettings.js';
import type { AgentSpec, ModelPrice } from '../orchestrator/types.js';
import type { BackendSettings } from '../providers/spec/backendSettings.js';
import { createModel as createSdkModel, type CreateModelOptions } from '../providers/createModel.js';
import { isCodingAgentType } from '../providers/spec/codingAgentTypes.js';
import type { ChatModel } from '../providers/spec/model.js';
import { configSecrets } from '../config/redact.js';
import { specSecrets } from '../mcp/mcpServerSpec.js';
import { keySecrets } from '../secrets/seedRedactor.js';
import { refusedAgentModel } from '../trust/refusedAgent.js';
import { teamAvailability } from './teamAvailability.js';

export interface TeamSources {
	readonly keys: ApiKeySources;
	/** Prices per agent model; undefined = tokens only ("no price"). */
	readonly priceOf?: (provider: string, model: string) => ModelPrice | undefined;
	/** Context windows per agent model (the price table's); undefined = unknown. */
	readonly contextWindowOf?: (provider: string, model: string) => number | undefined;
	/** Overrides model creation (the extension adds `vscode_lm`). */
	readonly createModel?: (settings: BackendSettings, options: CreateModelOptions) => ChatModel;
	/** The host's coding-agent CLIs (`HostPaths.codingAgents`), handed to the agents it does not refuse. */
	readonly codingAgentPaths?: CodingAgentPaths;
	/**
	 * Folder trust (`TrustGate.agentRefusal`): a reason when the agent's workspace parts (its
	 * `cli_path`, a host the workspace chose for its key) are refused. Such an agent gets no key
	 * and no model: its first call fails with the reason.
	 */
	readonly refuse?: (agentId: string) => string | undefined;
}

export interface BuiltTeam {
	readonly agents: AgentSpec[];
	/**
	 * Every secret value the run resolved, for its redactor: the agents' keys (from any source),
	 * every value in secret storage, secret-looking environment and `.env` values, URL credentials
	 * and secret-looking values anywhere in the config, and what its MCP servers' `${VAR}`s expand to.
	 */
	readonly secrets: string[];
}

/** Turns a validated config into agents with resolved keys and models (no network). */
export function buildAgents(config: MassGenConfig, sources: TeamSources): BuiltTeam {
	const { env } = sources.keys;
	const secrets: string[] = [...keySecrets(sources.keys), ...configSecrets(config)];
	const expandContext = { env, workspaceFolder: '', userHome: env['HOME'] ?? env['USERPROFILE'] };
	const make = sources.createModel ?? createSdkModel;
	const agents = config.agents.map((agent): AgentSpec => {
		for (const server of agent.backend.mcp_servers ?? []) secrets.push(...specSecrets(server, expandContext));
		const refusal = sources.refuse?.(agent.id);
		if (refusal !== undefined) {
			// Nothing resolved for it: no key looked up, no CLI path handed on.
			const settings = toBackendSettings(agent);
			return {
				id: agent.id,
				model: refusedAgentModel(agent.backend.type, agent.backend.model ?? '', refusal),
				systemMessage: agent.system_message,
				temperature: settings.temperature,
				maxOutputTokens: settings.maxTokens,
			};
		}
		const key = resolveApiKey(agent.backend, sources.keys);
		if (key.key) secrets.push(key.key);
		const settings = toBackendSettings(agent, key.key, resolveBaseUrl(agent.backend, sources.keys));
		const model = make(settings, {
			keyVariable: key.variables[0],
			env,
			...(sources.codingAgentPaths ? { codingAgentPaths: sources.codingAgentPaths } : {}),
		});
		return {
			id: agent.id,
			model,
			systemMessage: agent.system_message,
			temperature: settings.temperature,
			maxOutputTokens: settings.maxTokens,
			price: sources.priceOf?.(settings.type, settings.model),
			contextWindow: contextWindowOf(agent, sources),
		};
	});
	return { agents, secrets };
}

/**
 * The config's `context_window`, else the table's. A coding agent's CLI keeps its own context (it
 * compacts by itself): none, unless the config names one.
 */
function contextWindowOf(agent: AgentConfig, sources: TeamSources): number | undefined {
	const { type, model, context_window } = agent.backend;
	if (context_window !== undefined || isCodingAgentType(type)) return context_window;
	return sources.contextWindowOf?.(type, model);
}

/** The default team keeps agents with a key, or a local server that answers, or a provider the host adds. */
export async function selectDefaultTeam(
	config: MassGenConfig,
	keys: ApiKeySources,
	file: string,
	hostProvides: (agent: AgentConfig) => boolean = () => false,
): Promise<TeamSelection> {
	// The Team view shows the same verdicts (teamAvailability), so view and run never disagree.
	const host = (agent: AgentConfig) => (hostProvides(agent) ? { available: true, reason: '' } : undefined);
	const verdicts = await teamAvailability(config.agents, { keys, host });
	const available = new Map(verdicts.map((verdict) => [verdict.id, verdict.available]));
	return selectAvailableAgents(config, (agent) => available.get(agent.id) ?? false, file);
}
