import { readDotenv, type ApiKeySources } from '../config/apiKeys.js';
import type { RunHost } from './runHost.js';

/** What decides a workspace's key sources: the host's stored keys, its environment, its trust. */
export type RunKeyHost = Pick<RunHost, 'env' | 'workspaceTrusted' | 'storedKeys'>;

/**
 * The key sources a run in `root` uses: the host's stored keys, its environment, and the
 * workspace's `.env` only when the host trusts the workspace (no folder: no `.env`). Shared by
 * `prepareRun`, the Team view and `massgen trust`, so what they show is what a run would use.
 */
export async function runKeys(root: string | undefined, host: RunKeyHost): Promise<ApiKeySources> {
	return {
		...(host.storedKeys ? { secrets: await host.storedKeys() } : {}),
		env: host.env,
		dotenv: root !== undefined && host.workspaceTrusted ? await readDotenv(root) : {},
	};
}
