import Module from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** Node 22.1+ caches compiled code for every module loaded after this call. */
type WithCompileCache = typeof Module & { enableCompileCache?: (directory: string) => unknown };

/**
 * Loads the CLI's other bundles (`dist/cli-commands.js`, the provider SDKs beside it). Where Node
 * has a compile cache (22.1+), it is on first, in the user's cache folder (`$XDG_CACHE_HOME` or
 * `~/.cache`, then `massgen/compile-cache`): a run then starts without parsing megabytes again.
 * `NODE_DISABLE_COMPILE_CACHE` turns it off, as it does for Node's own.
 */
export function loadBundle(file: string, env: NodeJS.ProcessEnv): unknown {
	const enableCompileCache = (Module as WithCompileCache).enableCompileCache;
	const cache = env['XDG_CACHE_HOME'] || (homedir() && join(homedir(), '.cache'));
	if (enableCompileCache && cache && !env['NODE_DISABLE_COMPILE_CACHE']) {
		enableCompileCache(join(cache, 'massgen', 'compile-cache'));
	}
	// A computed require, on purpose: an import would make esbuild bundle the file into the entry.
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	return require(file);
}
