/**
 * The repository a workspace folder belongs to. A workspace opened on a package of a monorepo
 * (`repo/packages/app`) is still the same author's repository: its root's config, scripts and
 * `node_modules/.bin` are as much the repository's as the folder's own.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { isRootOrInside } from './paths.js';

/**
 * The nearest folder at or above `folder` (a real path) holding `.git` (a folder, or a worktree's
 * file), or undefined. Not one at or above the home folder: a dotfiles `~/.git` holds the user's
 * own files, not a cloned repository's.
 */
export function repositoryOf(folder: string, home: string = homedir()): string | undefined {
	for (let current = folder; ; current = dirname(current)) {
		if (existsSync(join(current, '.git'))) return isRootOrInside(current, home) ? undefined : current;
		if (dirname(current) === current) return undefined;
	}
}
