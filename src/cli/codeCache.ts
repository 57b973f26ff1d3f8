import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';

/**
 * The bundles loaded with V8's cached data where Node has no compile cache of its own (Node 20).
 * V8 drops a script's `import()` callback when it is compiled from cached data, so these must hold
 * no `import()`: `build:cli` turns theirs into `require` and keeps the one that loads ESM files
 * (`shippedSdk.ts`) in a bundle of its own, loaded by Node (test/scripts/buildCli.ts).
 */
export const codeCachedBundles: readonly string[] = [
	'cli-commands.js',
	'openai-sdk.js',
	'anthropic-sdk.js',
	'genai-sdk.js',
];

/**
 * Requires a CommonJS bundle as Node would, compiled from the data cached in `cacheDir` when V8
 * accepts it; when it had none, writes it at exit (it then holds every function the run compiled).
 * The bundle's relative requires of the other `codeCachedBundles` load the same way.
 */
export function codeCachedRequire(file: string, cacheDir: string): unknown {
	const loaded = new Map<string, unknown>();
	const load = (path: string): unknown => {
		if (!loaded.has(path)) loaded.set(path, runCached(path, cacheDir, load));
		return loaded.get(path);
	};
	return load(file);
}

function runCached(file: string, cacheDir: string, load: (file: string) => unknown): unknown {
	const source = readFileSync(file, 'utf8');
	const cacheFile = join(cacheDir, `${basename(file)}-${fileKey(file)}.bin`);
	let cachedData: Buffer | undefined;
	try {
		cachedData = readFileSync(cacheFile);
	} catch {
		// None yet: this run compiles from source and writes it.
	}
	const script = new Script(Module.wrap(source), { filename: file, cachedData });
	if (!cachedData || script.cachedDataRejected) process.once('exit', () => writeCache(script, cacheFile));
	const module = new Module(file);
	module.filename = file;
	const plain = createRequire(file);
	const require = Object.assign(
		(id: string) =>
			id.startsWith('./') && codeCachedBundles.includes(id.slice(2))
				? load(join(dirname(file), id))
				: plain(id),
		plain,
	);
	const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
	wrapper.call(module.exports, module.exports, require, module, file, dirname(file));
	module.loaded = true;
	return module.exports;
}

/**
 * Names the cached data by the file's identity, not its content (hashing megabytes would cost what
 * the cache saves): any rewrite changes its ctime. V8 itself rejects data of another V8 or flags.
 */
function fileKey(file: string): string {
	const { size, mtimeMs, ctimeMs, ino } = statSync(file);
	return createHash('sha256')
		.update(`${file}\0${size}\0${mtimeMs}\0${ctimeMs}\0${ino}`)
		.digest('hex')
		.slice(0, 16);
}

/** Best effort: where it cannot be written (a read-only home), the next start compiles again. */
function writeCache(script: Script, cacheFile: string): void {
	try {
		mkdirSync(dirname(cacheFile), { recursive: true, mode: 0o700 });
		const partial = `${cacheFile}.${process.pid}`;
		writeFileSync(partial, script.createCachedData(), { mode: 0o600 });
		renameSync(partial, cacheFile);
	} catch {
		// The cache is only an optimisation.
	}
}
