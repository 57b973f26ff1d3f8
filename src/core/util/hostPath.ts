/**
 * The `PATH` our own host tools (bwrap, unshare, mount, tar, rg, git, the coding agents' CLIs) are
 * looked up on. `npx massgen`, `npm exec` and npm scripts put `<workspace>/node_modules/.bin` first,
 * and an activated `.venv/bin` or direnv's `PATH_add` can put other workspace folders there: a
 * repository's own `bwrap` or `git` would then run on the host as the user, and a fake `bwrap`
 * would quietly replace the sandbox. So entries that lie inside the workspace (as written or by
 * their real path) or inside the repository holding it, any `node_modules/.bin`, and relative
 * entries (`.`, `bin`, the empty entry: the current folder) are left out. Commands inside the
 * sandbox are unaffected: they see the scratch copy, not these folders.
 */
import { homedir } from 'node:os';
import { delimiter, isAbsolute } from 'node:path';
import { isRootOrInside, realpathOrNull } from './paths.js';

const realOrSelf = (path: string): string => realpathOrNull(path) ?? path;
import { repositoryOf } from './repositoryRoot.js';

/** `path` without the entries a workspace at `workspaceRoot` (or its repository) controls. */
export function hostPath(path: string | undefined, workspaceRoot: string): string {
	const roots = [workspaceRoot, realOrSelf(workspaceRoot)];
	// A workspace that is a package of a monorepo: npm puts every ancestor's `node_modules/.bin`
	// on PATH, and the repository's root is the same author's.
	const repository = repositoryOf(realOrSelf(workspaceRoot), realOrSelf(homedir()));
	if (repository !== undefined) roots.push(repository);
	return (path ?? '')
		.split(delimiter)
		.filter((entry) => isAbsolute(entry))
		.filter((entry) => !isPackageBin(entry) && !isPackageBin(realOrSelf(entry)))
		.filter(
			(entry) =>
				!roots.some((root) => isRootOrInside(root, entry) || isRootOrInside(root, realOrSelf(entry))),
		)
		.join(delimiter);
}

/** `…/node_modules/.bin`: a project's installed packages' commands, never the user's own tools. */
function isPackageBin(entry: string): boolean {
	const segments = entry.split(/[\\/]+/).filter((segment) => segment !== '');
	return segments.some((segment, i) => segment === 'node_modules' && segments[i + 1] === '.bin');
}

/** `env` with its `PATH` (and Windows' `Path`) through `hostPath`. */
export function hostEnvironment<Env extends Readonly<Record<string, string | undefined>>>(
	env: Env,
	workspaceRoot: string,
): Env {
	const out: Record<string, string | undefined> = { ...env };
	for (const name of ['PATH', 'Path']) {
		if (out[name] !== undefined) out[name] = hostPath(out[name], workspaceRoot);
	}
	return out as Env;
}
