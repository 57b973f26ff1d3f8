import { realpathSync } from 'node:fs';
import { isInside } from '../util/paths.js';

/**
 * Whether a team config file is the workspace's (a cloned repository's own) rather than the
 * user's: inside the workspace by the path as given, or by its real path — a path like
 * `/proc/self/root/<workspace>/x.yaml` (which a workspace's `massgen.config` setting can spell
 * with `${workspaceFolder}`) or a link from outside reaches a workspace file by an outside path.
 * Synchronous: two `realpath` calls, once per run.
 */
export function isWorkspaceFile(root: string, file: string): boolean {
	if (isInside(root, file)) return true;
	const realRoot = realOrNull(root);
	const realFile = realOrNull(file);
	return realRoot !== null && realFile !== null && isInside(realRoot, realFile);
}

function realOrNull(path: string): string | null {
	try {
		return realpathSync(path);
	} catch {
		return null;
	}
}
