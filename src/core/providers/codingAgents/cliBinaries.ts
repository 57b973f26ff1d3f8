/** Finding the binaries a coding agent runs with: its CLI on `PATH`, and a `bwrap` that can start. */
import { accessSync, constants, readdirSync, realpathSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, delimiter, dirname, join } from 'node:path';
import { detectSandbox } from '../../exec/sandbox/detectSandbox.js';

/**
 * The executable `name` in the first `PATH` folder that has one, links resolved: installers link
 * the CLI from a bin folder (`~/.local/bin/claude`, npm's global bin), and the CLI's sandbox binds
 * the folder the binary really sits in.
 */
export function onPath(name: string, path: string | undefined): string | undefined {
	for (const folder of (path ?? '').split(delimiter).filter(Boolean)) {
		try {
			accessSync(join(folder, name), constants.X_OK);
			return realpathSync(join(folder, name));
		} catch {
			// Not here.
		}
	}
	return undefined;
}

/** A Codex CLI binary, and the folders its package puts first on the CLI's `PATH` (its `rg`). */
export interface CodexOnPath {
	readonly path: string;
	readonly pathDirs: readonly string[];
}

/**
 * The `codex` on `PATH` as the binary to run. npm's `codex` is a Node wrapper (`bin/codex.js`) that
 * outlives the binary it starts when it is ended, so for it the native binary of its platform
 * package (as the SDK would pick) is returned; any other `codex` (Homebrew, a release download) is
 * the binary itself. Undefined when there is none, or npm's wrapper lacks its platform package.
 */
export function codexOnPath(path: string | undefined): CodexOnPath | undefined {
	const found = onPath(process.platform === 'win32' ? 'codex.exe' : 'codex', path);
	if (found === undefined) return undefined;
	const isNpmWrapper = basename(found) === 'codex.js' && basename(dirname(found)) === 'bin';
	return isNpmWrapper ? npmCodexBinary(found) : { path: found, pathDirs: [] };
}

/** The native binary beside npm's wrapper: `@openai/codex-<platform>-<arch>/vendor/<target>/`. */
function npmCodexBinary(wrapper: string): CodexOnPath | undefined {
	const binary = process.platform === 'win32' ? 'codex.exe' : 'codex';
	try {
		const manifest = createRequire(wrapper).resolve(
			`@openai/codex-${process.platform}-${process.arch}/package.json`,
		);
		const vendor = join(dirname(manifest), 'vendor');
		for (const target of readdirSync(vendor)) {
			// The current layout (`bin/`, `codex-path/`), then the older one (`codex/`, `path/`).
			for (const [bin, extra] of [
				['bin', 'codex-path'],
				['codex', 'path'],
			] as const) {
				const candidate = join(vendor, target, bin, binary);
				if (!isFile(candidate)) continue;
				const dirs = [join(vendor, target, extra)].filter(isFolder);
				return { path: candidate, pathDirs: dirs };
			}
		}
	} catch {
		// Installed without its platform package.
	}
	return undefined;
}

const isFile = (path: string) => statSync(path, { throwIfNoEntry: false })?.isFile() === true;
const isFolder = (path: string) => statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;

/**
 * The `bwrap` to contain the CLI with (`MASSGEN_BWRAP_PATH`, else on `PATH`), when a trial sandbox
 * starts with it (the command sandbox's own probe); undefined otherwise, and on other systems.
 */
export async function usableBubblewrap(
	env: Readonly<Record<string, string | undefined>>,
): Promise<string | undefined> {
	if (process.platform !== 'linux') return undefined;
	const bwrapPath = env['MASSGEN_BWRAP_PATH'] || onPath('bwrap', env['PATH']);
	if (bwrapPath === undefined) return undefined;
	const detection = await detectSandbox({ bwrapPath, path: env['PATH'] ?? '', overlay: false });
	return detection.sandbox?.mode === 'bubblewrap' ? bwrapPath : undefined;
}

/**
 * Codex without a configured path: undefined (the SDK's own binary) when the SDK finds one beside
 * it (`sdkFindsOwn` does not throw: a checkout's npm install), else the `codex` on `PATH` — the
 * .vsix and the npm-installed CLI ship no binary.
 */
export function codexFallback(sdkFindsOwn: () => unknown, path: string | undefined): string | undefined {
	try {
		sdkFindsOwn();
		return undefined;
	} catch {
		return codexOnPath(path)?.path;
	}
}
