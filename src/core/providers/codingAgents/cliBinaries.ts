/** Finding the binaries a coding agent runs with: its CLI on `PATH`, and a `bwrap` that can start. */
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { detectSandbox } from '../../sandbox/detectSandbox.js';

export function onPath(name: string, path: string | undefined): string | undefined {
	for (const folder of (path ?? '').split(delimiter).filter(Boolean)) {
		try {
			accessSync(join(folder, name), constants.X_OK);
			return join(folder, name);
		} catch {
			// Not here.
		}
	}
	return undefined;
}

/**
 * The `bwrap` to contain the CLI with (`MASSGEN_BWRAP_PATH`, else on `PATH`), when a trial sandbox
 * starts with it (the command sandbox's own probe); undefined otherwise, and on other systems.
 */
export async function usableBubblewrap(
	env: Readonly<Record<string, string | undefined>>,
): Promise<string | undefined> {
	if (process.platform !== 'linux') return undefined;
	const bwrapPath = env['MASSGEN_BWRAP_PATH'] || onPath('bwrap', env['PATH']);
	if (bwrapPath === undefined) return undefined;
	const detection = await detectSandbox({ bwrapPath, path: env['PATH'] ?? '', overlay: false });
	return detection.sandbox?.mode === 'bubblewrap' ? bwrapPath : undefined;
}
