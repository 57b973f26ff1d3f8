import type { BackendSettings } from '../spec/backendSettings.js';
import type { ChatRequest } from '../spec/model.js';

/**
 * MassGen backend keys that configure the framework, not the provider API: they are never
 * sent to a vendor (an unknown body parameter is a 400 on most APIs).
 */
const frameworkKeys = new Set([
	'type',
	'model',
	'api_key',
	'base_url',
	'temperature',
	'max_tokens',
	'api_version',
	'azure_endpoint',
	'cwd',
	'agent_id',
	'session_id',
	'mcp_servers',
	'allowed_tools',
	'exclude_tools',
	'disallowed_tools',
	'custom_tools',
	'enable_web_search',
	'enable_code_interpreter',
	'enable_code_execution',
	'enable_image_generation',
	'enable_audio_generation',
	'enable_file_generation',
	'enable_multimodal_tools',
	'enable_planning_mode',
	'enable_rate_limit',
	'context_paths',
	'context_write_access_enabled',
	'agent_temporary_workspace',
	'upload_files',
	'timeout_settings',
	'permission_mode',
	'system_message',
	'use_mcpwrapped',
	'exclude_file_operation_mcps',
	'debug_delay_seconds',
	'debug_delay_after_n_tools',
	'script',
	'provider_options',
	'providerOptions',
]);

/**
 * Provider parameters for one call: the backend's YAML keys that are not framework keys, then
 * the config's `provider_options` escape hatch, then the request's `providerOptions` (last wins).
 */
export function passThroughOptions(settings: BackendSettings, request: ChatRequest): Record<string, unknown> {
	const out: Record<string, unknown> = {};
	const add = (source: Readonly<Record<string, unknown>> | undefined) => {
		for (const [key, value] of Object.entries(source ?? {})) {
			if (!frameworkKeys.has(key) && value !== undefined) out[key] = value;
		}
	};
	add(settings.options);
	add(asRecord(settings.options['provider_options']) ?? asRecord(settings.options['providerOptions']));
	add(request.providerOptions);
	return out;
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
	return value && typeof value === 'object' && !Array.isArray(value)
		? (value as Record<string, unknown>)
		: undefined;
}

/** Config fields whose values are user data (schemas, labels), left exactly as written. */
const opaqueFields = new Set(['responseSchema', 'responseJsonSchema', 'labels', 'parametersJsonSchema']);

/** Gemini's JS SDK takes camelCase config fields; MassGen YAML uses the REST snake_case names. */
export function camelCaseKeys(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(camelCaseKeys);
	if (!value || typeof value !== 'object') return value;
	return Object.fromEntries(
		Object.entries(value).map(([key, inner]) => {
			const camel = key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
			return [camel, opaqueFields.has(camel) ? inner : camelCaseKeys(inner)];
		}),
	);
}
