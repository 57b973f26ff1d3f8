/**
 * `npm run build:cli` (after `build:sdk`): the CLI as bundles that each load only when needed.
 * - `cli.js`: the executable (`src/cli/main.ts`), small: `--version` loads nothing else;
 * - `cli-commands.js`: every command (`src/cli/commands.ts`), loaded by `cli.js` through the compile
 *   cache (`src/cli/bundleLoader.ts`);
 * - `openai-sdk.js`, `anthropic-sdk.js`, `genai-sdk.js`: the providers' SDKs, each required at its
 *   first `import()` by the provider adapter, so a run loads the SDKs of its team's providers only;
 * - `shipped-sdk.js`: `shippedSdk.ts` alone, which imports the coding agents' ESM SDK files.
 */
import { build, type BuildOptions, type Metafile, type Plugin } from 'esbuild';
import { chmodSync } from 'node:fs';
import { join } from 'node:path';

/** Package → its bundle, beside `cli-commands.js`. */
export const providerSdkBundles: Readonly<Record<string, string>> = {
	openai: 'openai-sdk',
	'@anthropic-ai/sdk': 'anthropic-sdk',
	'@google/genai': 'genai-sdk',
};

const repo = join(__dirname, '..', '..');

/** What an installed CLI needs in `dist/` (besides `build:sdk`'s coding-agent SDK files). */
export const cliFiles: readonly string[] = [
	'cli.js',
	'cli-commands.js',
	'shipped-sdk.js',
	...Object.values(providerSdkBundles).map((name) => `${name}.js`),
];

const common: BuildOptions = {
	absWorkingDir: repo,
	bundle: true,
	platform: 'node',
	format: 'cjs',
	target: 'node20',
	logLevel: 'warning',
	define: { MASSGEN_SDK_DIR: '__dirname' },
};

/**
 * In the commands bundle, `import('openai')` → `require('./openai-sdk.js')` (a static import of an
 * SDK fails the build: it would bundle the SDK), and `shippedSdk.ts`, whose `import()` loads the
 * coding agents' ESM files, → `require('./shipped-sdk.js')`, a bundle of its own.
 */
const bundlesApart: Plugin = {
	name: 'bundles-apart',
	setup(builder) {
		const names = Object.keys(providerSdkBundles).map((name) => name.replace(/[/]/g, '\\/'));
		builder.onResolve({ filter: new RegExp(`^(${names.join('|')})$`) }, (args) => {
			if (args.kind === 'entry-point') return undefined;
			if (args.kind !== 'dynamic-import') {
				return { errors: [{ text: `${args.path}: import it with import() (from ${args.importer})` }] };
			}
			return { path: `./${providerSdkBundles[args.path]}.js`, external: true };
		});
		builder.onResolve({ filter: /\/shippedSdk\.js$/ }, () => ({ path: './shipped-sdk.js', external: true }));
		// The coding agents' SDKs are ESM files of their own (`build:sdk`), which shipped-sdk.js imports;
		// their packages are imported only by sources run directly (vitest, tsx), never in a bundle.
		builder.onResolve({ filter: /^(@anthropic-ai\/claude-agent-sdk|@openai\/codex-sdk)$/ }, (args) => ({
			path: args.path,
			namespace: 'shipped-only',
		}));
		builder.onLoad({ filter: /.*/, namespace: 'shipped-only' }, (args) => ({
			contents: `throw new Error(${JSON.stringify(`${args.path} is loaded from its file in dist/`)});`,
		}));
	},
};

/**
 * Builds the CLI's bundles into `outdir` (with source maps unless `sourcemap: false`); with
 * `metafile`, returns the builds' metafiles merged.
 */
export async function buildCli(
	outdir: string,
	options: { metafile?: boolean; sourcemap?: boolean } = {},
): Promise<Metafile> {
	const metafile = options.metafile ?? false;
	const sourcemap = options.sourcemap ?? true;
	const builds = await Promise.all([
		build({
			...common,
			entryPoints: { cli: 'src/cli/main.ts' },
			banner: { js: '#!/usr/bin/env node' },
			outdir,
			metafile,
			sourcemap,
		}),
		build({
			...common,
			entryPoints: {
				'cli-commands': 'src/cli/commands.ts',
				...Object.fromEntries(Object.entries(providerSdkBundles).map(([name, file]) => [file, name])),
			},
			// What `codeCache.ts` loads (Node 20) must hold no import(): these become require().
			supported: { 'dynamic-import': false },
			plugins: [bundlesApart],
			outdir,
			metafile,
			sourcemap,
		}),
		build({
			...common,
			entryPoints: { 'shipped-sdk': 'src/core/providers/codingAgents/shippedSdk.ts' },
			outdir,
			metafile,
			sourcemap,
		}),
	]);
	return {
		inputs: Object.assign({}, ...builds.map((result) => result.metafile?.inputs)),
		outputs: Object.assign({}, ...builds.map((result) => result.metafile?.outputs)),
	};
}

if (process.argv[1] === __filename) {
	void buildCli(join(repo, 'dist')).then(() => chmodSync(join(repo, 'dist', 'cli.js'), 0o755));
}
