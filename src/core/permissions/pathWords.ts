/**
 * How the permission engine reads path-like words of a command: where they point relative to
 * the workspace copy the command runs in (absolute, home, climbing out with `..`).
 */
import { posix } from 'node:path';

/** Device files that are harmless to read or write. */
const harmlessDevices = /^\/dev\/(null|zero|u?random|stdin|stdout|stderr|tty|fd\/\d+)$/;

/** Raw disks and partitions: writing them destroys file systems. */
export const rawDevice = /^\/dev\/(sd|hd|vd|xvd|nvme|mmcblk|disk|rdisk|md\d|dm-|loop|mapper\/|sr\d|nbd)/i;

/** Top-level system folders: recursive deletion or permission changes there are never allowed. */
const systemFolders = new Set([
	'bin',
	'boot',
	'dev',
	'etc',
	'home',
	'lib',
	'lib32',
	'lib64',
	'opt',
	'proc',
	'root',
	'run',
	'sbin',
	'srv',
	'sys',
	'usr',
	'var',
	'system',
	'library',
	'applications',
	'users',
	'private',
	'volumes',
	'windows',
	'program files',
]);

/** `~`, `~/…`, `~user`, `$HOME…`, `${HOME}` (already `$HOME` after parsing) all mean the home folder. */
export function homeRelative(word: string): string | null {
	const match = /^(?:~[A-Za-z0-9._-]*|\$HOME|\$USERPROFILE)(?=\/|\\|$)(.*)$/.exec(word);
	return match ? match[1]!.replace(/\\/g, '/') : null;
}

/** Whether a word looks like a path at all (not an option, URL or plain word with no separators). */
export function looksLikePath(word: string): boolean {
	if (word.startsWith('-') || /^[a-z][a-z0-9+.-]*:\/\//i.test(word)) return false;
	return (
		word.startsWith('/') ||
		word.startsWith('~') ||
		word.startsWith('$HOME') ||
		word.includes('/') ||
		word === '.' ||
		word === '..' ||
		/^[a-zA-Z]:[\\/]/.test(word)
	);
}

/**
 * Whether a path word points outside the workspace copy: absolute paths (harmless devices
 * aside), the home folder, Windows drive paths, and relative paths that climb above the root
 * from `cwd` (workspace-relative, `.` for the root).
 */
export function isOutside(word: string, cwd = '.'): boolean {
	if (harmlessDevices.test(word)) return false;
	if (word.startsWith('/') || /^[a-zA-Z]:[\\/]/.test(word) || word.startsWith('\\\\')) return true;
	if (homeRelative(word) !== null) return true;
	if (word.startsWith('$')) return true;
	const joined = posix.normalize(posix.join(cwd, word.replace(/\\/g, '/')));
	return joined === '..' || joined.startsWith('../');
}

/**
 * Whether a path word names the file-system root, the home folder itself, a top-level system
 * folder, or a wildcard over one of those (`/*`, `/{etc,usr}`, `~/*`). These are the targets
 * of the hardline floor for recursive deletion and permission changes.
 */
export function isCriticalPath(word: string): boolean {
	const home = homeRelative(word);
	if (home !== null) {
		const rest = home.replace(/^\/+/, '').replace(/\/+$/, '');
		return rest === '' || rest === '.' || rest === '*' || rest === '.*' || /^[*?[{]/.test(rest);
	}
	const drive = /^[a-zA-Z]:[\\/]*(.*)$/.exec(word);
	const path = drive ? `/${drive[1]!.replace(/\\/g, '/')}` : word;
	if (!path.startsWith('/')) return false;
	const normalised = posix.normalize(path).replace(/\/+$/, '');
	if (normalised === '' || normalised === '/' || normalised === '/.') return true;
	const segments = normalised.split('/').filter(Boolean);
	const first = segments[0]!;
	if (/[*?[{]/.test(first)) return true;
	if (segments.length === 1 && systemFolders.has(first.toLowerCase())) return true;
	return segments.length === 2 && systemFolders.has(first.toLowerCase()) && /^[*?[{]/.test(segments[1]!);
}

/** Whether any segment of a path word is `.git` (the repository's internals). */
export function touchesGitDir(word: string): boolean {
	return word
		.replace(/\\/g, '/')
		.split('/')
		.some((segment) => segment.toLowerCase() === '.git');
}

/** Words of a part that are not options (after `--`, everything is an operand). */
export function operands(words: readonly string[]): string[] {
	const out: string[] = [];
	let optionsDone = false;
	for (const word of words) {
		if (!optionsDone && word === '--') {
			optionsDone = true;
			continue;
		}
		if (!optionsDone && word.startsWith('-') && word !== '-') continue;
		out.push(word);
	}
	return out;
}

/** Values of `--opt=/path` style words, which also name paths. */
export function optionValues(words: readonly string[]): string[] {
	return words.flatMap((word) => {
		const match = /^--?[A-Za-z][\w-]*=(.+)$/.exec(word);
		return match ? [match[1]!] : [];
	});
}
