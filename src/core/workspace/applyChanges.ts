import { lstat, mkdir, readFile, realpath, rm, rmdir, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { normaliseRelative, policyRefusal, rootPath } from './pathPolicy.js';
import { sha256 } from './sha256.js';
import type { FileChange } from './types.js';

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
	/** Write even when a file changed since the agents read it (path safety still holds). */
	readonly force?: boolean;
}

/**
 * Writes a change set to disk, all or nothing: every target is checked first (its current
 * sha256 must equal `baseHash`; added files must not exist yet) and on any conflict nothing is
 * written. Used only by the CLI's --apply and the editor's Accept (DESIGN §4).
 */
export async function applyChanges(
	root: string,
	changes: readonly FileChange[],
	options: ApplyOptions = {},
): Promise<ApplyResult> {
	const realRoot = await realpath(resolve(root));
	const conflicts: ApplyConflict[] = [];
	for (const change of changes) {
		const reason = await conflictOf(realRoot, change, options.force === true);
		if (reason !== null) conflicts.push({ path: change.path, reason });
	}
	if (conflicts.length > 0) return { applied: [], conflicts };

	const applied: string[] = [];
	for (const change of changes) {
		const target = join(realRoot, change.path);
		if (change.content === null) {
			await rm(target, { force: true });
			await removeEmptyParents(realRoot, dirname(target));
		} else {
			await mkdir(dirname(target), { recursive: true });
			await writeFile(target, change.content, 'utf8');
		}
		applied.push(change.path);
	}
	return { applied, conflicts: [] };
}

async function conflictOf(root: string, change: FileChange, force: boolean): Promise<string | null> {
	const rel = normaliseRelative(change.path);
	if (rel === null || rel === rootPath || rel !== change.path || isAbsolute(change.path)) {
		return `'${change.path}' is not a normalised path inside the workspace`;
	}
	const refusal = policyRefusal(rel, rel, 'write', []);
	if (refusal !== null) return refusal;
	if (!(await staysInside(root, join(root, rel)))) {
		return `refused: '${rel}' resolves outside the workspace through a symlink`;
	}
	const current = await readCurrent(join(root, rel));
	if (current === 'not-a-file') return `'${rel}' is not a regular file`;
	if (force) return null;
	if (change.kind === 'add') return current === null ? null : `'${rel}' already exists`;
	if (current === null) return `'${rel}' no longer exists`;
	return sha256(current) === change.baseHash ? null : `'${rel}' changed since the agents read it`;
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

/** Whether the deepest existing ancestor of `target` really lies inside `root`. */
async function staysInside(root: string, target: string): Promise<boolean> {
	for (let current = dirname(target); ; current = dirname(current)) {
		try {
			const rel = relative(root, await realpath(current));
			return rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
		} catch {
			if (dirname(current) === current) return false;
		}
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
