import type OpenAI from 'openai';
import type { BackendSettings } from '../spec/backendSettings.js';
import { ProviderError } from '../spec/providerError.js';
import { presetFor } from '../spec/presets.js';

/**
 * Builds an `openai` client (plain or Azure) with nothing taken from the environment: the SDK
 * would otherwise read OPENAI_API_KEY / OPENAI_BASE_URL / OPENAI_ORG_ID, and could send an
 * OpenAI key to another vendor's preset. Retries are off: they belong to the orchestrator.
 */
export async function createOpenAIClient(
	settings: BackendSettings,
	keyVariable: string | undefined,
): Promise<OpenAI> {
	const sdk = await import('openai');
	const preset = presetFor(settings.type);
	const apiKey = settings.apiKey ?? preset?.placeholderKey;
	if (!apiKey) {
		throw new ProviderError({
			provider: settings.type,
			kind: 'auth',
			retryable: false,
			message: `${keyVariable ?? preset?.keyVariables[0] ?? `${settings.type} API key`} is not set`,
		});
	}
	const baseURL = settings.baseUrl ?? preset?.baseUrl;
	if (!baseURL) {
		throw new ProviderError({
			provider: settings.type,
			kind: 'invalid-response',
			retryable: false,
			message: `${settings.type}: base_url is required for this backend type`,
		});
	}
	const common = {
		apiKey,
		maxRetries: 0,
		organization: null,
		project: null,
		adminAPIKey: null,
		webhookSecret: null,
		logLevel: 'off' as const,
	};
	if (settings.type === 'azure_openai') {
		const apiVersion = settings.options['api_version'];
		return new sdk.AzureOpenAI({
			...common,
			endpoint: baseURL,
			apiVersion: typeof apiVersion === 'string' ? apiVersion : '2024-10-21',
			deployment: settings.model,
		});
	}
	return new sdk.OpenAI({ ...common, baseURL });
}
