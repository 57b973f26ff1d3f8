/**
 * The lexical half of the path-safety policy (docs/tools-and-sandbox.md): pure string checks on a normalised,
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
	if (mode === 'write') {
		const dependency = lowered.find((segment) => dependencyFolders.has(segment));
		if (dependency !== undefined) {
			return `refused: '${escapeFileName(display)}' is inside a dependency folder (${dependency}/): installed code is never edited in place (git shows no change there and the next import runs it); change the project's own files or its dependency list`;
		}
		const unsafeName = fileNameRefusal(segments);
		if (unsafeName !== null) return `refused: '${escapeFileName(display)}' ${unsafeName}`;
	}
	if (mode === 'write' && protectedPaths.some((guarded) => isSameOrInside(path, guarded))) {
		return `refused: '${display}' is a protected path`;
	}
	return null;
}

/** Installed dependencies at any depth (the folders the command scratch binds read-only). */
const dependencyFolders = new Set(['node_modules', '.venv', 'venv']);

/**
 * Characters no written file name may hold: controls (C0, DEL, C1: a name replays them into every
 * terminal, log and unquoted shell loop that prints it), line and paragraph separators, unpaired
 * surrogates (written as U+FFFD: another name than the one reviewed), and every invisible format
 * character (`\p{Cf}`: bidi marks, overrides and isolates make `zip.js` show as `sj.piz`; zero-width
 * characters, U+FEFF and the soft hyphen make two names look alike, and HFS+ ignores several of
 * them, as git's `is_hfs_dotgit` knows). Reading such a name stays allowed: it exists already
 * (a repository may hold one, e.g. macOS's `Icon\r`) and reading creates nothing.
 */
const unsafeNameChar = /[\p{Cc}\p{Cf}\p{Cs}\u2028\u2029]/u;

/** Why these segments may not name a written file (null: they may), naming the offending character. */
function fileNameRefusal(segments: readonly string[]): string | null {
	for (const segment of segments) {
		const bad = unsafeNameChar.exec(segment);
		if (bad !== null) {
			return `has ${codePoint(bad[0])} (${characterKind(bad[0])}) in a file name: agents never write names with control, invisible or bidi characters; use plain characters`;
		}
		// Windows drops a trailing dot or space (another file than the one reviewed); a leading or
		// trailing space is invisible in every listing.
		if (/^\s|[\s.]$/u.test(segment)) {
			return `has a file name that starts with a space or ends with a space or dot (Windows and macOS tools drop or hide them): use a name without them`;
		}
	}
	return null;
}

function codePoint(char: string): string {
	return `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

function characterKind(char: string): string {
	const code = char.codePointAt(0)!;
	if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return 'a control character';
	if (code === 0x2028 || code === 0x2029) return 'a line separator';
	if (code >= 0xd800 && code <= 0xdfff) return 'an unpaired surrogate';
	if ((code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069)) return 'a bidi control';
	if (code === 0x200e || code === 0x200f || code === 0x61c) return 'a bidi mark';
	return 'an invisible format character';
}

/** A path as it may be quoted in a refusal: every character the name rule refuses as `<U+XXXX>`. */
export function escapeFileName(path: string): string {
	return path.replace(/[\p{Cc}\p{Cf}\p{Cs}\u2028\u2029]/gu, (char) => `<${codePoint(char)}>`);
}

/** No tool argument can lift this; only the user can add patterns (never remove them). */
function secretRefusal(display: string, pattern: string): string {
	return `refused: '${display}' is a secret path (matches '${pattern}'): agents never read, list, search, copy or write secret files, and no tool argument can allow it`;
}

/** Whether `path` equals `folder` or lies below it (both normalised). */
export function isSameOrInside(path: string, folder: string): boolean {
	return folder === rootPath || path === folder || path.startsWith(`${folder}/`);
}
