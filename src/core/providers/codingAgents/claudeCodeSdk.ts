/**
 * Loads the Claude Agent SDK at run time, only when a team has a `claude_code` agent. The SDK is
 * ESM and reads `import.meta.url`, which our CJS bundles break, so the bundles keep it external
 * (`--external:@anthropic-ai/claude-agent-sdk`) and it is resolved from `node_modules` beside them;
 * its ~400 MB CLI binary is never bundled.
 */
import { ProviderError } from '../providerError.js';

export type ClaudeSdk = typeof import('@anthropic-ai/claude-agent-sdk');

let loading: Promise<ClaudeSdk> | undefined;

export function loadClaudeSdk(): Promise<ClaudeSdk> {
	loading ??= import('@anthropic-ai/claude-agent-sdk').catch((error: unknown) => {
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
