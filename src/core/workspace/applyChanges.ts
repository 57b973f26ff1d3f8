import { lstat, mkdir, readFile, realpath, rm, rmdir } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { atomicWrite, NotARegularFileError } from '../util/atomicWrite.js';
import { normaliseRelative, policyRefusal, rootPath } from './pathPolicy.js';
import type { SecretPaths } from './secretPaths.js';
import { sha256 } from './sha256.js';
import type { FileChange } from '../../contract/fileChange.js';

export interface ApplyConflict {
	readonly path: string;
	readonly reason: string;
}

export interface ApplyResult {
	/** Paths written or deleted, in the order of the change set. */
	readonly applied: string[];
	/** Why the change set was not applied; when non-empty, nothing was written. */
	readonly conflicts: ApplyConflict[];
}

export interface ApplyOptions {
	/** The config's `protected_paths` (normalised, workspace-relative): never written. */
	readonly protectedPaths?: readonly string[];
	/** The run's secret-path policy (the built-in one when absent). */
	readonly secrets?: SecretPaths;
}

/**
 * Writes a change set to disk, all or nothing: every target is checked first (its current
 * sha256 must equal `baseHash`; added files must not exist yet) and on any conflict nothing is
 * written. Each path is resolved again right before its write (realpath of every parent), so a
 * symlink the user's tree gained after the run cannot redirect a write into `.git/`, a secret or
 * protected path, or out of the workspace, and each file's text is checked again just before it
 * is replaced (a save by another program meanwhile); a link or a change found then stops the rest
 * (what was written before is listed in `applied`). Every write is atomic (`atomicWrite`: a
 * reader sees the old file or the new one, mode kept). Callers hold the workspace lock
 * (`withWorkspaceLock`) from planning to here, so MassGen's own writers never interleave. Used by
 * the CLI's --apply (`applyChangeSet`) and revert; the editor's Accept writes through a
 * WorkspaceEdit and uses `writeRefusal` (docs/changes.md).
 */
export async function applyChanges(
	root: string,
	changes: readonly FileChange[],
	options: ApplyOptions = {},
): Promise<ApplyResult> {
	const realRoot = await realpath(resolve(root));
	const conflicts: ApplyConflict[] = [];
	for (const change of changes) {
		const reason = await conflictOf(realRoot, change, options);
		if (reason !== null) conflicts.push({ path: change.path, reason });
	}
	if (conflicts.length > 0) return { applied: [], conflicts };

	const applied: string[] = [];
	for (const change of changes) {
		const refusal = await conflictOf(realRoot, change, options);
		if (refusal !== null) return { applied, conflicts: [{ path: change.path, reason: refusal }] };
		const target = join(realRoot, change.path);
		if (change.content === null) {
			await rm(target, { force: true });
			await removeEmptyParents(realRoot, dirname(target));
		} else {
			await mkdir(dirname(target), { recursive: true });
			try {
				// `create` for an added file: one that appeared since the check is never clobbered.
				await atomicWrite(target, change.content, { flag: change.kind === 'add' ? 'create' : 'replace' });
			} catch (error) {
				const code = (error as NodeJS.ErrnoException).code;
				if (!(error instanceof NotARegularFileError) && code !== 'EEXIST') throw error;
				const reason = code === 'EEXIST' ? `'${change.path}' already exists` : (error as Error).message;
				return { applied, conflicts: [{ path: change.path, reason }] };
			}
		}
		applied.push(change.path);
	}
	return { applied, conflicts: [] };
}

async function conflictOf(root: string, change: FileChange, options: ApplyOptions): Promise<string | null> {
	const refusal = await writeRefusal(root, change.path, options);
	if (refusal !== null) return refusal;
	const rel = change.path;
	const current = await readCurrent(join(root, rel));
	if (current === 'not-a-file') return `'${rel}' is not a regular file`;
	if (change.kind === 'add') return current === null ? null : `'${rel}' already exists`;
	if (current === null) return `'${rel}' no longer exists`;
	return sha256(current) === change.baseHash ? null : `'${rel}' changed since the agents read it`;
}

/**
 * Why `path` may not be written now, or null: the lexical policy on the path as given, then on
 * where it really lands (realpath of its deepest existing parent, the rest appended).
 */
export async function writeRefusal(
	root: string,
	path: string,
	options: ApplyOptions = {},
): Promise<string | null> {
	const rel = normaliseRelative(path);
	if (rel === null || rel === rootPath || rel !== path || isAbsolute(path)) {
		return `'${path}' is not a normalised path inside the workspace`;
	}
	const guarded = options.protectedPaths ?? [];
	const lexical = policyRefusal(rel, rel, 'write', guarded, options.secrets);
	if (lexical !== null) return lexical;
	const landing = await realLanding(root, rel);
	if (landing === 'outside') return `refused: '${rel}' resolves outside the workspace through a symlink`;
	if (landing === 'dangling') return `refused: '${rel}' lies under a symlink that cannot be resolved`;
	const target = await lstat(join(root, rel)).catch(() => null);
	if (target?.isSymbolicLink()) return `refused: '${rel}' is a symlink (an accept never writes through one)`;
	if (landing === rel) return null;
	const viaLink = policyRefusal(landing, rel, 'write', guarded, options.secrets);
	return viaLink === null ? null : `${viaLink} (via a symlink to '${landing}')`;
}

/** Text of the target, null when absent, or 'not-a-file' for directories and symlinks. */
async function readCurrent(target: string): Promise<string | null | 'not-a-file'> {
	try {
		if (!(await lstat(target)).isFile()) return 'not-a-file';
	} catch {
		return null;
	}
	return readFile(target, 'utf8');
}

/**
 * Workspace-relative path where a write to `rel` lands once every symlinked parent is followed
 * (the deepest existing parent's realpath, the rest appended): `outside` when that leaves the
 * root, `dangling` when a parent is a link that cannot be resolved (a write would create its target).
 */
async function realLanding(root: string, rel: string): Promise<string | 'outside' | 'dangling'> {
	const rest = [basename(rel)];
	for (let current = dirname(join(root, rel)); ; current = dirname(current)) {
		let real: string;
		try {
			real = await realpath(current);
		} catch {
			if ((await lstat(current).catch(() => null)) !== null) return 'dangling';
			if (dirname(current) === current) return 'outside';
			rest.unshift(basename(current));
			continue;
		}
		const inside = relative(root, join(real, ...rest));
		if (inside === '' || inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) {
			return 'outside';
		}
		return inside.split(sep).join('/');
	}
}

/** Removes folders a deletion left empty, as `git apply` does, stopping at the root. */
async function removeEmptyParents(root: string, dir: string): Promise<void> {
	for (let current = dir; current !== root && current.startsWith(root); current = dirname(current)) {
		try {
			await rmdir(current);
		} catch {
			return;
		}
	}
}
