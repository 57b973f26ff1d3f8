/**
 * `npm run pack:cli` (after `build:sdk`): the CLI as an npm package of its own, `massgen-cli.tgz` in
 * the checkout, for `npm install -g ./massgen-cli.tgz` where there is Node and no checkout.
 * It holds what an installed CLI reads and nothing else: the CLI's bundles (`cliFiles`, built here
 * without source maps), the coding agents' SDK files (`build:sdk`'s, from `dist/`), `configs/`
 * (found beside `dist/` by `src/cli/shippedFiles.ts`), the license, the licenses of the packages the
 * bundles hold (`THIRD_PARTY_NOTICES.md`, from the build's own list of inputs) and a short README.
 * It declares no dependency: every package the CLI uses is in its bundles, which require only Node's
 * own modules (and ws's optional add-ons, in a `try`), so installing it needs no registry
 * (test/integration/packaging/cliPackage.test.ts).
 */
import { execFileSync } from 'node:child_process';
import {
	cpSync,
	existsSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	renameSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Metafile } from 'esbuild';
import { buildCli, cliFiles } from './buildCli.js';

const repo = join(__dirname, '..', '..');

/** The package's name, and its tarball's name in the checkout. */
export const cliPackageName = 'massgen-cli';
export const cliTarball = `${cliPackageName}.tgz`;

/** `build:sdk`'s files (package.json) → the one package each bundles (nothing else goes in them). */
const codingAgentSdks: Readonly<Record<string, string>> = {
	'claude-agent-sdk.mjs': '@anthropic-ai/claude-agent-sdk',
	'codex-sdk.mjs': '@openai/codex-sdk',
};

/** The package's files but those written at pack time (package.json, README.md, THIRD_PARTY_NOTICES.md). */
export function cliPackageFiles(): string[] {
	const configs = readdirSync(join(repo, 'configs')).filter(
		(file) => file.endsWith('.yaml') || file === 'massgen.schema.json',
	);
	return [
		...[...cliFiles, ...Object.keys(codingAgentSdks)].map((file) => `dist/${file}`),
		...configs.map((file) => `configs/${file}`),
		'LICENSE',
	];
}

interface Manifest {
	readonly name: string;
	readonly version: string;
	readonly license?: string;
	readonly repository?: unknown;
	readonly engines: { readonly node: string };
}

const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;

/** Each package folder (`node_modules/…/name`) whose files a build's inputs hold. */
function packageFolders(meta: Metafile): string[] {
	const folders = Object.keys(meta.inputs).flatMap((input) => {
		const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
		return match ? [match[1]!] : [];
	});
	return [...new Set(folders)];
}

/** A notice per bundled package: name, version, license, and the text of its license file(s). */
function thirdPartyNotices(folders: readonly string[]): string {
	const sections = folders
		.map((folder) => ({ folder, manifest: readJson<Manifest>(join(repo, folder, 'package.json')) }))
		.sort((a, b) => a.manifest.name.localeCompare(b.manifest.name) || a.folder.localeCompare(b.folder))
		.map(({ folder, manifest }) => {
			const license = manifest.license ?? 'no license field';
			const texts = readdirSync(join(repo, folder))
				.filter((file) => /^(licen[cs]e|notice|copying)/i.test(file))
				.map((file) => readFileSync(join(repo, folder, file), 'utf8').trim());
			const body =
				texts.length > 0
					? texts
					: [`(The package holds no license file; its package.json says: ${license}.)`];
			return [
				`## ${manifest.name} ${manifest.version} (${license})`,
				'',
				...body.flatMap((text) => ['```', text, '```', '']),
			].join('\n');
		});
	return ['# Third-party notices', '', "The files in dist/ hold these packages' code.", '', ...sections].join(
		'\n',
	);
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

/** Builds and stages the package, packs it with npm into `destination`; returns the tarball's path. */
export async function packCli(destination: string): Promise<string> {
	const root = readJson<Manifest>(join(repo, 'package.json'));
	const stage = mkdtempSync(join(tmpdir(), 'massgen-cli-stage-'));
	try {
		const meta = await buildCli(join(stage, 'dist'), { metafile: true, sourcemap: false });
		for (const file of cliPackageFiles().filter((file) => !existsSync(join(stage, file)))) {
			if (!existsSync(join(repo, file))) {
				throw new Error(`${file} is missing: run \`npm run build:sdk\` first`);
			}
			cpSync(join(repo, file), join(stage, file));
		}
		const folders = [
			...packageFolders(meta),
			...Object.values(codingAgentSdks).map((name) => `node_modules/${name}`),
		];
		writeFileSync(join(stage, 'THIRD_PARTY_NOTICES.md'), thirdPartyNotices(folders));
		const manifest = {
			name: cliPackageName,
			version: root.version,
			description: "MassGen's command line: a team of LLM agents that answer, vote and propose changes",
			license: root.license,
			repository: root.repository,
			bin: { massgen: 'dist/cli.js' },
			engines: { node: root.engines.node },
			files: ['dist', 'configs', 'THIRD_PARTY_NOTICES.md'],
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
	void packCli(repo).then((tarball) =>
		process.stdout.write(`wrote ${tarball}\ninstall it with: npm install -g ./${cliTarball}\n`),
	);
}
