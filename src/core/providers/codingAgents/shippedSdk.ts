/**
 * Where the coding agents' SDKs load from at run time (docs/coding-agents.md). Both are ESM and read
 * `import.meta.url` (the Claude SDK at load, to find its own CLI binary), which a CJS bundle breaks,
 * so `build:sdk` bundles each into its own ESM file in `dist/` (`claude-agent-sdk.mjs`,
 * `codex-sdk.mjs`) and the CLI and engine bundles, built with `MASSGEN_SDK_DIR` defined as their
 * folder, import those: the `.vsix` and an npm-installed CLI carry no `node_modules`. Sources run
 * directly (vitest, tsx) import the packages. The CLIs' platform binaries are never bundled: with
 * no CLI path set, an SDK looks for them from its file's folder up, which only a checkout has.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** `build:cli` / `build:ext`: `--define:MASSGEN_SDK_DIR=__dirname` (the bundle's folder). */
declare const MASSGEN_SDK_DIR: string | undefined;

export const shippedSdkFiles = { claude: 'claude-agent-sdk.mjs', codex: 'codex-sdk.mjs' } as const;

/** The SDK from its shipped file beside the bundle, or (sources) from its package. */
export function importSdk<T>(file: string, fromPackage: () => Promise<T>): Promise<T> {
	if (typeof MASSGEN_SDK_DIR !== 'string') return fromPackage();
	return import(pathToFileURL(join(MASSGEN_SDK_DIR, file)).href) as Promise<T>;
}
