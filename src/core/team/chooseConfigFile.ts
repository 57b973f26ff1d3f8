import { pathExists } from '../util/pathExists.js';
import { join, resolve } from 'node:path';

export interface ConfigChoice {
	readonly file: string;
	/** `default` means the shipped team: agents whose provider is unavailable are dropped. */
	readonly kind: 'explicit' | 'workspace' | 'default';
	/** `<workspace>/.massgen/config.yaml` exists but was not used: the workspace is not trusted. */
	readonly skippedUntrusted?: boolean;
}

export interface ConfigFileOptions {
	/** Workspace Trust: an untrusted workspace's own config could start processes (default: trusted, as the CLI's). */
	readonly trusted?: boolean;
	readonly exists?: (path: string) => Promise<boolean>;
}

/**
 * Which team config a run uses, for both shells (the CLI's `--config`, the editor's `massgen.config`
 * setting as `explicit`): the given file, else `<workspace>/.massgen/config.yaml` when the workspace
 * is trusted, else the shipped default team.
 */
export async function chooseConfigFile(
	workspaceRoot: string,
	shippedConfigsDir: string,
	explicit?: string,
	options: ConfigFileOptions = {},
): Promise<ConfigChoice> {
	if (explicit) return { file: resolve(explicit), kind: 'explicit' };
	const { trusted = true, exists = pathExists } = options;
	const inWorkspace = join(workspaceRoot, '.massgen', 'config.yaml');
	const found = await exists(inWorkspace);
	if (found && trusted) return { file: inWorkspace, kind: 'workspace' };
	return {
		file: join(shippedConfigsDir, 'default.yaml'),
		kind: 'default',
		...(found ? { skippedUntrusted: true } : {}),
	};
}
