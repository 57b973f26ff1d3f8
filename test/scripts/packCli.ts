/**
 * `npm run pack:cli` (after `build:cli`): the CLI as an npm package of its own, `massgen-cli.tgz` in
 * the checkout, for `npm install -g ./massgen-cli.tgz` where there is Node and no checkout.
 * It holds what an installed CLI reads and nothing else: the bundles (`cliFiles`), the coding agents'
 * SDK files (`build:sdk`), `configs/` (found beside `dist/` by `src/cli/shippedFiles.ts`), the
 * license and a short README; no source maps. It declares no dependency: every package the CLI uses
 * is in its bundles, which require only Node's own modules (and ws's optional add-ons, in a `try`),
 * so installing it needs no registry (test/integration/packaging/cliPackage.test.ts).
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { cliFiles } from './buildCli.js';

const repo = join(__dirname, '..', '..');

/** The package's name, and its tarball's name in the checkout. */
export const cliPackageName = 'massgen-cli';
export const cliTarball = `${cliPackageName}.tgz`;

/** What the package takes from the checkout (after `build:cli`), relative to it. */
export function cliPackageFiles(): string[] {
	const configs = readdirSync(join(repo, 'configs')).filter(
		(file) => file.endsWith('.yaml') || file === 'massgen.schema.json',
	);
	return [
		...[...cliFiles, 'claude-agent-sdk.mjs', 'codex-sdk.mjs'].map((file) => `dist/${file}`),
		...configs.map((file) => `configs/${file}`),
		'LICENSE',
	];
}

interface RootManifest {
	readonly version: string;
	readonly license: string;
	readonly repository: unknown;
	readonly engines: { readonly node: string };
}

const readme = (version: string) => `# massgen-cli ${version}

MassGen's command line: a team of LLM agents answers in parallel, reads each other's answers and
votes; the winner's file edits are proposed, never written unless you pass \`--apply\`.

    massgen run --config "$(npm root -g)/${cliPackageName}/configs/demo.yaml" "How should we document this project?"
    massgen run "Add input validation to src/server.ts"      # with OPENAI_API_KEY, ANTHROPIC_API_KEY or GEMINI_API_KEY set
    massgen --help

Built from the MassGen for VS Code checkout (\`npm run pack:cli\`); its docs/cli.md is the reference.
`;

/** Node run on npm's own script when npm started this process, else `npm` on PATH. */
export function npmCommand(args: readonly string[]): [string, string[]] {
	const script = process.env['npm_execpath'];
	return script && /npm-cli\.js$/.test(script) ? [process.execPath, [script, ...args]] : ['npm', [...args]];
}

/** Stages the package, packs it with npm into `destination`; returns the tarball's path. */
export function packCli(destination: string): string {
	const root = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as RootManifest;
	const stage = mkdtempSync(join(tmpdir(), 'massgen-cli-stage-'));
	try {
		for (const file of cliPackageFiles()) cpSync(join(repo, file), join(stage, file));
		const manifest = {
			name: cliPackageName,
			version: root.version,
			description: "MassGen's command line: a team of LLM agents that answer, vote and propose changes",
			license: root.license,
			repository: root.repository,
			bin: { massgen: 'dist/cli.js' },
			engines: { node: root.engines.node },
			files: ['dist', 'configs'],
		};
		writeFileSync(join(stage, 'package.json'), `${JSON.stringify(manifest, null, '\t')}\n`);
		writeFileSync(join(stage, 'README.md'), readme(root.version));
		const [file, args] = npmCommand([
			'pack',
			'--ignore-scripts',
			'--json',
			'--pack-destination',
			destination,
		]);
		const packed = JSON.parse(execFileSync(file, args, { cwd: stage, encoding: 'utf8' })) as {
			filename: string;
		}[];
		const tarball = join(destination, cliTarball);
		renameSync(join(destination, basename(packed[0]!.filename)), tarball);
		return tarball;
	} finally {
		rmSync(stage, { recursive: true, force: true });
	}
}

if (process.argv[1] === __filename) {
	const tarball = packCli(repo);
	process.stdout.write(`wrote ${tarball}\ninstall it with: npm install -g ./${cliTarball}\n`);
}
