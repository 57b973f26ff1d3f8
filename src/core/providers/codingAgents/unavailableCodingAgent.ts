import type { BackendSettings } from '../spec/backendSettings.js';
import type { ChatModel, ModelEvent } from '../spec/model.js';
import { ProviderError } from '../spec/providerError.js';

/**
 * A coding agent (`claude_code`, `codex`, `gemini_cli`) until its adapter exists: the config
 * loads, and the agent's first call fails with an `unavailable` error, which leaves it out of
 * the run at once while the other agents go on (a run of such agents alone ends cleanly).
 */
export function createUnavailableCodingAgent(settings: BackendSettings): ChatModel {
	const message =
		`type ${settings.type}: coding agents cannot take part in a run yet ` +
		'(their configs load, but this version does not drive their CLI); this agent is left out';
	return {
		provider: settings.type,
		modelId: settings.model,
		capabilities: { tools: true, reasoning: false },
		// It never streams: the first call is the clear error.
		async *stream(): AsyncIterable<ModelEvent> {
			throw new ProviderError({ provider: settings.type, kind: 'unavailable', retryable: false, message });
		},
	};
}
