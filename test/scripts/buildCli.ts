/**
 * `npm run build:cli` (after `build:sdk`): the CLI as bundles that each load only when needed.
 * - `cli.js`: the executable (`src/cli/main.ts`), small: `--version` loads nothing else;
 * - `cli-commands.js`: every command (`src/cli/commands.ts`), loaded by `cli.js` (`src/cli/bundleLoader.ts`);
 * - `openai-sdk.js`, `anthropic-sdk.js`, `genai-sdk.js`: the providers' SDKs, each required at its
 *   first `import()` by the provider adapter, so a run loads the SDKs of its team's providers only.
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
	...Object.values(providerSdkBundles).map((name) => `${name}.js`),
];

const common: BuildOptions = {
	absWorkingDir: repo,
	bundle: true,
	platform: 'node',
	format: 'cjs',
	target: 'node20',
	sourcemap: true,
	logLevel: 'warning',
	// The coding agents' SDKs are ESM files of their own (`build:sdk`); see shippedSdk.ts.
	external: ['@anthropic-ai/claude-agent-sdk', '@openai/codex-sdk'],
	define: { MASSGEN_SDK_DIR: '__dirname' },
};

/**
 * `import('openai')` → `require('./openai-sdk.js')`, through a one-line module of its own (kept an
 * `import()` of the file, Node would load it through its slower ESM loader). A static import of an
 * SDK is an error: it would put the SDK in the commands bundle.
 */
const providerSdksApart: Plugin = {
	name: 'provider-sdks-apart',
	setup(builder) {
		const names = Object.keys(providerSdkBundles).map((name) => name.replace(/[/]/g, '\\/'));
		builder.onResolve({ filter: new RegExp(`^(${names.join('|')})$`) }, (args) => {
			if (args.kind === 'entry-point') return undefined;
			if (args.kind !== 'dynamic-import') {
				return { errors: [{ text: `${args.path}: import it with import() (from ${args.importer})` }] };
			}
			return { path: args.path, namespace: 'provider-sdk' };
		});
		builder.onLoad({ filter: /.*/, namespace: 'provider-sdk' }, (args) => ({
			contents: `module.exports = require('./${providerSdkBundles[args.path]}.js');`,
			loader: 'js',
		}));
		builder.onResolve({ filter: /^\.\/[a-z]+-sdk\.js$/, namespace: 'provider-sdk' }, (args) => ({
			path: args.path,
			external: true,
		}));
	},
};

/** Builds the CLI's bundles into `outdir`; with `metafile`, returns both builds' metafiles merged. */
export async function buildCli(outdir: string, options: { metafile?: boolean } = {}): Promise<Metafile> {
	const metafile = options.metafile ?? false;
	const [entry, rest] = await Promise.all([
		build({
			...common,
			entryPoints: { cli: 'src/cli/main.ts' },
			banner: { js: '#!/usr/bin/env node' },
			outdir,
			metafile,
		}),
		build({
			...common,
			entryPoints: {
				'cli-commands': 'src/cli/commands.ts',
				...Object.fromEntries(Object.entries(providerSdkBundles).map(([name, file]) => [file, name])),
			},
			plugins: [providerSdksApart],
			outdir,
			metafile,
		}),
	]);
	return {
		inputs: { ...entry.metafile?.inputs, ...rest.metafile?.inputs },
		outputs: { ...entry.metafile?.outputs, ...rest.metafile?.outputs },
	};
}

if (process.argv[1] === __filename) {
	void buildCli(join(repo, 'dist')).then(() => chmodSync(join(repo, 'dist', 'cli.js'), 0o755));
}
