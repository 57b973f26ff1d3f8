/**
 * Loads the Claude Agent SDK at run time, only when a team has a `claude_code` agent: the bundles
 * keep the package external and import `dist/claude-agent-sdk.mjs` (`shippedSdk.ts`).
 */
import { ProviderError } from '../spec/providerError.js';
import { importSdk, shippedSdkFiles } from './shippedSdk.js';

export type ClaudeSdk = typeof import('@anthropic-ai/claude-agent-sdk');

let loading: Promise<ClaudeSdk> | undefined;

export function loadClaudeSdk(): Promise<ClaudeSdk> {
	loading ??= importSdk<ClaudeSdk>(
		shippedSdkFiles.claude,
		() => import('@anthropic-ai/claude-agent-sdk'),
	).catch((error: unknown) => {
		loading = undefined;
		throw new ProviderError({
			provider: 'claude_code',
			kind: 'unavailable',
			retryable: false,
			message: `type claude_code: the Claude Agent SDK could not be loaded (${(error as Error).message})`,
		});
	});
	return loading;
}
