import { realpathSync } from 'node:fs';
import { isInside } from '../util/paths.js';
import { repositoryOf } from '../util/repositoryRoot.js';

/**
 * Whether a team config file is the workspace's (a cloned repository's own) rather than the
 * user's: inside the workspace (or the repository holding it) by the path as given, or by its real path — a path like
 * `/proc/self/root/<workspace>/x.yaml` (which a workspace's `massgen.config` setting can spell
 * with `${workspaceFolder}`) or a link from outside reaches a workspace file by an outside path.
 * Synchronous: two `realpath` calls, once per run.
 */
export function isWorkspaceFile(root: string, file: string): boolean {
	if (isInside(fold(root), fold(file))) return true;
	const realRoot = realOrNull(root);
	const realFile = realOrNull(file);
	if (realRoot === null || realFile === null) return false;
	// A workspace on a package of a monorepo: `--config ../.massgen/config.yaml` is the same
	// repository's file, not the user's own.
	const repository = repositoryOf(realRoot);
	return [realRoot, ...(repository === undefined ? [] : [repository])].some((folder) =>
		isInside(fold(folder), fold(realFile)),
	);
}

/**
 * On macOS and Windows file names are case-insensitive: `/Users/u/REPO/x.yaml` is a file of
 * `/Users/u/repo`, so both sides are compared case-folded there.
 */
function fold(path: string): string {
	return process.platform === 'darwin' || process.platform === 'win32' ? path.toLowerCase() : path;
}

/** `realpathSync.native` gives the canonical spelling (case, Windows 8.3 names); the JS one keeps the caller's. */
function realOrNull(path: string): string | null {
	try {
		return realpathSync.native(path);
	} catch {
		return null;
	}
}
