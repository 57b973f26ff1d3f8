import { pathExists } from '../util/pathExists.js';
import { join, resolve } from 'node:path';

export interface ConfigChoice {
	readonly file: string;
	/** `default` means the shipped team: agents whose provider is unavailable are dropped. */
	readonly kind: 'explicit' | 'workspace' | 'default';
}

/** DESIGN §8/§9: the given file, else `<workspace>/.massgen/config.yaml`, else the shipped default team. */
export async function chooseConfigFile(workspaceRoot: string, shippedConfigsDir: string, explicit?: string): Promise<ConfigChoice> {
	if (explicit) return { file: resolve(explicit), kind: 'explicit' };
	const inWorkspace = join(workspaceRoot, '.massgen', 'config.yaml');
	if (await pathExists(inWorkspace)) return { file: inWorkspace, kind: 'workspace' };
	return { file: join(shippedConfigsDir, 'default.yaml'), kind: 'default' };
}
