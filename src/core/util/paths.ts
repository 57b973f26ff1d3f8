/**
 * File-system path questions asked all over the core and both shells, answered once. Paths are
 * compared after `resolve` by segments (so `/a/bc` is not inside `/a/b`), without following links:
 * callers that must see through links pass `realpath`s. For normalised workspace-relative paths
 * (the overlays' keys) use `workspace/pathPolicy`'s `isSameOrInside` instead.
 */
import { realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { readRegularText } from './regularFile.js';

/** The real path (links resolved) of an existing path, or null. Synchronous: for a few calls per run. */
export function realpathOrNull(path: string): string | null {
	try {
		return realpathSync(path);
	} catch {
		return null;
	}
}

/** True when `path` lies strictly below `root`: the root itself is not inside itself. */
export function isInside(root: string, path: string): boolean {
	const rel = relative(resolve(root), resolve(path));
	return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

/** True when `path` is `root` or lies below it. */
export function isRootOrInside(root: string, path: string): boolean {
	return relative(resolve(root), resolve(path)) === '' || isInside(root, path);
}

/** The file's UTF-8 text, or null when it cannot be read (absent, a directory, a FIFO or device, unreadable). */
export async function readOrNull(path: string): Promise<string | null> {
	try {
		return await readRegularText(path);
	} catch {
		return null;
	}
}
