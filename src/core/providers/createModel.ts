import type { CodingAgentPaths } from '../util/cliPathVariables.js';
import type { BackendSettings } from './spec/backendSettings.js';
import type { ChatModel } from './spec/model.js';
import { AnthropicModel } from './vendors/anthropic.js';
import { ChatCompletionsModel } from './vendors/chatCompletions.js';
import { GeminiModel } from './vendors/gemini.js';
import { OpenAIResponsesModel } from './vendors/openaiResponses.js';
import { keyVariablesFor, presetFor } from './spec/presets.js';
import { ProviderError } from './spec/providerError.js';
import { createScriptedModel } from './vendors/scripted.js';
import { usesXaiResponses, XaiResponsesModel } from './vendors/xaiResponses.js';
import { ClaudeCodeModel } from './codingAgents/claudeCodeModel.js';
import { CodexModel } from './codingAgents/codexModel.js';
import { isCodingAgentType } from './spec/codingAgentTypes.js';
import { createUnavailableCodingAgent } from './codingAgents/unavailableCodingAgent.js';

export interface CreateModelOptions {
	/** Environment variable the key came from, named in auth errors (defaults to the type's first variable). */
	readonly keyVariable?: string;
	/** The host environment, for coding agents' CLIs (PATH, HOME, their login); API adapters take none. */
	readonly env?: Readonly<Record<string, string | undefined>>;
	/** The host's coding-agent CLIs (`HostPaths.codingAgents`), used where the config names none. */
	readonly codingAgentPaths?: CodingAgentPaths;
}

/**
 * Backend settings → the adapter for its `type`. No SDK is loaded here: each adapter imports
 * its SDK on its first call, so the extension activates fast.
 */
export function createModel(settings: BackendSettings, options: CreateModelOptions = {}): ChatModel {
	const keyVariable = options.keyVariable ?? keyVariablesFor(settings.type, settings.baseUrl)[0];
	if (settings.type === 'scripted') return createScriptedModel(settings);
	if (settings.type === 'claude_code' || settings.type === 'codex') {
		const env = options.env ?? {};
		const cliPath = options.codingAgentPaths?.[settings.type];
		const adapter = { env, ...(cliPath === undefined ? {} : { cliPath }) };
		return settings.type === 'claude_code'
			? new ClaudeCodeModel(settings, adapter)
			: new CodexModel(settings, adapter);
	}
	if (isCodingAgentType(settings.type)) return createUnavailableCodingAgent(settings);
	if (settings.type === 'vscode_lm') {
		throw new ProviderError({
			provider: 'vscode_lm',
			kind: 'invalid-response',
			retryable: false,
			message: 'vscode_lm backends (VS Code language models) are only available inside VS Code',
		});
	}
	if (usesXaiResponses(settings)) return new XaiResponsesModel(settings, { keyVariable });
	const preset = presetFor(settings.type);
	switch (preset?.api) {
		case 'responses':
			return new OpenAIResponsesModel(settings, { keyVariable });
		case 'chat-completions':
			return new ChatCompletionsModel(settings, { keyVariable });
		case 'anthropic':
			return new AnthropicModel(settings, { keyVariable });
		case 'gemini':
			return new GeminiModel(settings, { keyVariable });
		default:
			throw new ProviderError({
				provider: settings.type,
				kind: 'invalid-response',
				retryable: false,
				message: `unknown backend type "${settings.type}"`,
			});
	}
}
