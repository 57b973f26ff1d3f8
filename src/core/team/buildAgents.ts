import { resolveApiKey, type ApiKeySources } from '../config/apiKeys.js';
import { localServerUrl, selectAvailableAgents, type TeamSelection } from '../config/defaultTeam.js';
import type { AgentConfig, MassGenConfig } from '../config/schema.js';
import { toBackendSettings } from '../config/toSettings.js';
import type { AgentSpec, ModelPrice } from '../orchestrator/types.js';
import type { BackendSettings } from '../providers/backendSettings.js';
import { createModel as createSdkModel, type CreateModelOptions } from '../providers/createModel.js';
import type { ChatModel } from '../providers/model.js';
import { probeLocalServer } from './probeLocalServer.js';

export interface TeamSources {
	readonly keys: ApiKeySources;
	/** Prices per agent model; undefined = tokens only ("no price"). */
	readonly priceOf?: (provider: string, model: string) => ModelPrice | undefined;
	/** Overrides model creation (the extension adds `vscode_lm`). */
	readonly createModel?: (settings: BackendSettings, options: CreateModelOptions) => ChatModel;
}

export interface BuiltTeam {
	readonly agents: AgentSpec[];
	/** Every resolved key, so logs can redact them. */
	readonly secrets: string[];
}

/** Turns a validated config into agents with resolved keys and models (no network). */
export function buildAgents(config: MassGenConfig, sources: TeamSources): BuiltTeam {
	const secrets: string[] = [];
	const make = sources.createModel ?? createSdkModel;
	const agents = config.agents.map((agent): AgentSpec => {
		const key = resolveApiKey(agent.backend, sources.keys);
		if (key.key) secrets.push(key.key);
		const settings = toBackendSettings(agent, key.key);
		const model = make(settings, { keyVariable: key.variables[0] });
		return {
			id: agent.id,
			model,
			systemMessage: agent.system_message,
			temperature: settings.temperature,
			maxOutputTokens: settings.maxTokens,
			price: sources.priceOf?.(settings.type, settings.model),
		};
	});
	return { agents, secrets };
}

/** The default team keeps agents with a key, or a local server that answers, or a provider the host adds. */
export async function selectDefaultTeam(
	config: MassGenConfig,
	keys: ApiKeySources,
	file: string,
	hostProvides: (agent: AgentConfig) => boolean = () => false,
): Promise<TeamSelection> {
	const verdicts = new Map<string, boolean>();
	await Promise.all(
		config.agents.map(async (agent) => {
			const url = localServerUrl(agent.backend);
			const available =
				hostProvides(agent) ||
				agent.backend.type === 'scripted' ||
				(url ? await probeLocalServer(url) : resolveApiKey(agent.backend, keys).key !== undefined);
			verdicts.set(agent.id, available);
		}),
	);
	return selectAvailableAgents(config, (agent) => verdicts.get(agent.id) ?? false, file);
}
