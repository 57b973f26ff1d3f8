import type { OrchestratorSettings } from '../orchestrator/types.js';
import type { BackendSettings } from '../providers/backendSettings.js';
import type { AgentConfig, MassGenConfig } from './schema.js';

const ms = (seconds: number): number => Math.round(seconds * 1000);

/** The orchestrator knobs the config sets (seconds → ms); the rest keep the orchestrator's defaults. */
export function toOrchestratorSettings(config: MassGenConfig): Partial<OrchestratorSettings> {
	const { orchestrator, timeout_settings: timeouts } = config;
	return {
		votingSensitivity: orchestrator.voting_sensitivity,
		answerNoveltyRequirement: orchestrator.answer_novelty_requirement,
		maxNewAnswersPerAgent: orchestrator.max_new_answers_per_agent,
		maxToolCallsPerTurn: orchestrator.max_tool_calls_per_turn,
		maxRounds: orchestrator.max_rounds,
		skipCoordinationRounds: orchestrator.skip_coordination_rounds,
		coordinationTimeoutMs: ms(timeouts.orchestrator_timeout_seconds),
		agentTurnTimeoutMs: timeouts.agent_timeout_seconds === null ? null : ms(timeouts.agent_timeout_seconds),
		presentationTimeoutMs: ms(timeouts.presentation_timeout_seconds),
	};
}

/**
 * What `createModel` needs for one agent. `apiKey` is the resolved key (see `resolveApiKey`);
 * without it the config's own `api_key` is used. Every key without a field of its own
 * (`reasoning`, `text`, `api_version`, `script`, pass-through keys) goes into `options`.
 */
export function toBackendSettings(agent: AgentConfig, apiKey?: string): BackendSettings {
	const { type, model, api_key, base_url, temperature, max_tokens, options, ...rest } = agent.backend;
	const key = apiKey ?? api_key;
	return {
		type,
		model,
		...(key === undefined ? {} : { apiKey: key }),
		...(base_url === undefined ? {} : { baseUrl: base_url }),
		...(temperature === undefined ? {} : { temperature }),
		...(max_tokens === undefined ? {} : { maxTokens: max_tokens }),
		options: { ...options, ...rest },
	};
}
