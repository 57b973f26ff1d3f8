/**
 * The lexical half of the path-safety policy (architecture §4): pure string checks on a normalised,
 * workspace-relative path. The symlink half needs the disk and lives in `createWorkspace`.
 */
import { posix } from 'node:path';
import { builtinSecretPaths, type SecretPaths } from './secretPaths.js';
import type { PathMode } from './types.js';

/** The workspace root, as a normalised relative path. */
export const rootPath = '.';

/**
 * Normalises a relative path: `\` becomes `/`, `.` and `..` segments are folded, trailing
 * slashes dropped. Returns null when the path climbs above the root.
 */
export function normaliseRelative(path: string): string | null {
	const folded = posix.normalize(path.replace(/\\/g, '/')).replace(/\/+$/, '');
	if (folded === '..' || folded.startsWith('../')) return null;
	return folded === '' ? rootPath : folded;
}

/**
 * The refusal reason for a normalised relative path, or null when the policy allows it.
 * Internal folders compare case-insensitively because macOS and Windows file systems do.
 */
export function policyRefusal(
	path: string,
	display: string,
	mode: PathMode,
	protectedPaths: readonly string[],
	secrets: SecretPaths = builtinSecretPaths,
): string | null {
	const segments = path === rootPath ? [] : path.split('/');
	const lowered = segments.map((segment) => segment.toLowerCase());
	if (lowered.includes('.git')) {
		return `refused: '${display}' is inside .git/ (repository internals are never touched)`;
	}
	if (lowered.includes('.massgen')) {
		return `refused: '${display}' is inside .massgen/ (MassGen's own run data is never touched)`;
	}
	const secret = secrets.match(path);
	if (secret !== null) return secretRefusal(display, secret);
	if (mode === 'write' && protectedPaths.some((guarded) => isSameOrInside(path, guarded))) {
		return `refused: '${display}' is a protected path`;
	}
	return null;
}

/** No tool argument can lift this; only the user can add patterns (never remove them). */
function secretRefusal(display: string, pattern: string): string {
	return `refused: '${display}' is a secret path (matches '${pattern}'): agents never read, list, search, copy or write secret files, and no tool argument can allow it`;
}

/** Whether `path` equals `folder` or lies below it (both normalised). */
export function isSameOrInside(path: string, folder: string): boolean {
	return folder === rootPath || path === folder || path.startsWith(`${folder}/`);
}
