import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, type Workbench } from '../workbench';

/** A Playwright scenario: gets a fresh workbench window with the extension loaded from the repo. */
export interface Scenario {
	readonly name: string;
	/**
	 * Adds files to the scenario's fresh workspace copy before the window opens; returns a
	 * `.code-workspace` file to open instead of the folder (a multi-root workspace).
	 */
	prepareWorkspace?(folder: string): void | { readonly workspaceFile: string };
	/** `folder`: the absolute path of the workspace the window shows. */
	run(workbench: Workbench, folder: string): Promise<void>;
}

/** Makes `configFile` (a path inside the repository) the workspace's team: `.massgen/config.yaml`. */
export function installTeam(folder: string, ...configFile: string[]): void {
	mkdirSync(join(folder, '.massgen'), { recursive: true });
	copyFileSync(join(repoRoot, ...configFile), join(folder, '.massgen', 'config.yaml'));
}
