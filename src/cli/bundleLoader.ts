import { lstatSync, mkdirSync } from 'node:fs';
import Module from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { codeCachedRequire } from './codeCache.js';

/** Node 22.1+ caches compiled code for every module loaded after this call. */
type WithCompileCache = typeof Module & { enableCompileCache?: (directory: string) => unknown };

/**
 * Loads the CLI's other bundles (`dist/cli-commands.js`, the provider SDKs beside it) with their
 * compiled code kept between runs, so that a run starts without parsing megabytes again: Node's
 * compile cache (22.1+), else V8's cached data (`codeCache.ts`). `NODE_DISABLE_COMPILE_CACHE`
 * turns it off, as it does Node's own.
 */
export function loadBundle(file: string, env: NodeJS.ProcessEnv): unknown {
	const cache = env['NODE_DISABLE_COMPILE_CACHE'] ? undefined : ownCacheDir();
	const enableCompileCache = (Module as WithCompileCache).enableCompileCache;
	if (cache && enableCompileCache) enableCompileCache(join(cache, 'node'));
	else if (cache) return codeCachedRequire(file, join(cache, 'v8'));
	// A computed require, on purpose: an import would make esbuild bundle the file into the entry.
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	return require(file);
}

/**
 * `<tmpdir>/massgen-compile-cache-<uid>`, where Node's own compile cache and v8-compile-cache keep
 * theirs: not in the home folder, which the CLI leaves as it was (a refused run writes nothing there,
 * test/integration/cli/folderTrust.test.ts). The temporary folder is shared, so the cache is used
 * only when the folder is ours and closed to others: code read from it runs in this process.
 */
function ownCacheDir(): string | undefined {
	const uid = process.getuid?.();
	const dir = join(tmpdir(), uid === undefined ? 'massgen-compile-cache' : `massgen-compile-cache-${uid}`);
	try {
		mkdirSync(dir, { recursive: true, mode: 0o700 });
		const stats = lstatSync(dir);
		const ours = uid === undefined || (stats.uid === uid && (stats.mode & 0o077) === 0);
		return stats.isDirectory() && ours ? dir : undefined;
	} catch {
		return undefined;
	}
}
