/**
 * The CLI's answers to the host questions every command shares (`run`, `chat`, `trust`,
 * `validate`, `init`): its keys and the team config the user named. The core decides the rest
 * (`core/run/runKeys.ts`, `core/team/loadTeam.ts`).
 */
import { resolve } from 'node:path';
import type { ApiKeySources } from '../core/config/apiKeys.js';
import { runKeys, type RunKeyHost } from '../core/run/runKeys.js';
import type { NamedConfig } from '../core/team/chooseTeamConfig.js';

/**
 * The environment, and the workspace's `.env`: the CLI trusts the folder it works in
 * (`workspaceTrusted`). The user ran the command there, its commands run sandboxed in a copy,
 * and where a key would be sent is the folder-trust listing's question (`massgen trust`).
 */
export function cliKeyHost(env: NodeJS.ProcessEnv): RunKeyHost {
	return { env, workspaceTrusted: true };
}

/** `runKeys` for the folder `root`, as the CLI's run host reads them. */
export function cliKeys(root: string, env: NodeJS.ProcessEnv): Promise<ApiKeySources> {
	return runKeys(root, cliKeyHost(env));
}

/** `--config FILE`, relative to the current directory. */
export function cliNamedConfig(config: string | undefined): NamedConfig | undefined {
	return config ? { file: resolve(config) } : undefined;
}

/** What the CLI says when the named config does not exist (the core's rule reports it, never replaces it). */
export function missingConfig(file: string): string {
	return `cannot read the config ${file}: no such file`;
}
