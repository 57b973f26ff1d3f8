import type { ChatModel, ModelEvent } from '../providers/spec/model.js';
import { ProviderError } from '../providers/spec/providerError.js';

/**
 * The model of an agent whose workspace parts were refused (`TrustGate.agentRefusal`): no key was
 * resolved and no CLI is started for it; its first call fails with `unavailable` and the reason,
 * which leaves it out of the run while the other agents go on.
 */
export function refusedAgentModel(provider: string, modelId: string, reason: string): ChatModel {
	return {
		provider,
		modelId,
		capabilities: { tools: true, reasoning: false },
		// It never streams: the first call is the refusal.
		async *stream(): AsyncIterable<ModelEvent> {
			throw new ProviderError({ provider, kind: 'unavailable', retryable: false, message: reason });
		},
	};
}
