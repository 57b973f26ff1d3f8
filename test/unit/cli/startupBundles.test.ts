import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Metafile } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { codeCachedBundles } from '../../../src/cli/codeCache.js';
import { buildCli, cliFiles, providerSdkBundles } from '../../scripts/buildCli.js';

const repo = join(__dirname, '..', '..', '..');
const sdkFolders = Object.keys(providerSdkBundles).map((name) => `node_modules/${name}/`);

/**
 * The CLI starts by loading only what its command uses: `build:cli` (test/scripts/buildCli.ts)
 * makes a small executable, a commands bundle it requires, and one bundle per provider SDK that a
 * provider adapter requires at its first call. Speed itself is measured by test/bench/startup.bench.ts.
 */
describe('the CLI bundles: a small entry, the commands, one bundle per provider SDK', () => {
	let outdir: string;
	let meta: Metafile;

	beforeAll(async () => {
		outdir = mkdtempSync(join(tmpdir(), 'massgen-build-cli-'));
		meta = await buildCli(outdir, { metafile: true });
	}, 60_000);

	const inputsOf = (name: string) => {
		const output = Object.entries(meta.outputs).find(([file]) => file.endsWith(`/${name}`));
		expect(output, name).toBeDefined();
		return Object.keys(output![1].inputs).map((file) => file.replace(/^.*node_modules\//, 'node_modules/'));
	};

	it('dist/cli.js holds only the entry: no command, no core, no package', () => {
		expect(inputsOf('cli.js').sort()).toEqual([
			'package.json',
			'src/cli/bundleLoader.ts',
			'src/cli/codeCache.ts',
			'src/cli/main.ts',
		]);
		expect(readFileSync(join(outdir, 'cli.js'), 'utf8')).toMatch(/^#!\/usr\/bin\/env node\n/);
	});

	it('the commands bundle holds no provider SDK; it requires each from its own bundle', () => {
		const inputs = inputsOf('cli-commands.js');
		expect(inputs).toContain('src/cli/runCommand.ts');
		expect(inputs.filter((file) => sdkFolders.some((folder) => file.startsWith(folder)))).toEqual([]);
		const commands = readFileSync(join(outdir, 'cli-commands.js'), 'utf8');
		for (const bundle of Object.values(providerSdkBundles)) {
			expect(commands).toContain(`require("./${bundle}.js")`);
		}
	});

	it('the bundles loaded from V8 cached data hold no import() (V8 drops its callback there); shipped-sdk.js does', () => {
		expect([...codeCachedBundles].sort()).toEqual(
			cliFiles.filter((file) => file !== 'cli.js' && file !== 'shipped-sdk.js').sort(),
		);
		for (const bundle of codeCachedBundles) {
			const imports = Object.entries(meta.outputs).find(([file]) => file.endsWith(`/${bundle}`))![1].imports;
			expect(imports.filter((entry) => entry.kind === 'dynamic-import')).toEqual([]);
		}
		expect(inputsOf('cli-commands.js').some((file) => file.endsWith('/shippedSdk.ts'))).toBe(false);
		expect(inputsOf('shipped-sdk.js')).toEqual(['src/core/providers/codingAgents/shippedSdk.ts']);
		expect(readFileSync(join(outdir, 'shipped-sdk.js'), 'utf8')).toContain('return import(');
	});

	it('each provider SDK bundle holds its SDK and no code of ours', () => {
		for (const [name, bundle] of Object.entries(providerSdkBundles)) {
			const inputs = inputsOf(`${bundle}.js`);
			expect(inputs.some((file) => file.startsWith(`node_modules/${name}/`))).toBe(true);
			expect(inputs.filter((file) => !file.startsWith('node_modules/'))).toEqual([]);
		}
	});

	it("the bundles require nothing but Node's own modules: the CLI's package declares no dependency", () => {
		const required = Object.entries(meta.outputs).flatMap(([file, output]) =>
			output.imports
				.filter((entry) => entry.external && !entry.path.startsWith('./'))
				.map((entry) => `${basename(file)}: ${entry.path.replace(/^node:/, '')}`),
		);
		expect(required.length).toBeGreaterThan(0);
		// ws (in the Gemini SDK) tries its optional native add-ons in a try and goes on without them.
		const optional = ['genai-sdk.js: bufferutil', 'genai-sdk.js: utf-8-validate'];
		expect(required.filter((entry) => !builtinModules.includes(entry.split(': ')[1]!)).sort()).toEqual(
			optional,
		);
	});

	it('the built CLI answers --version from its entry alone, and any other command from the commands bundle', () => {
		const { version } = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { version: string };
		expect(cliFiles).toEqual(expect.arrayContaining(['cli.js', 'cli-commands.js']));
		const cli = join(outdir, 'cli.js');
		expect(execFileSync(process.execPath, [cli, '--version'], { encoding: 'utf8' })).toBe(`${version}\n`);
		expect(execFileSync(process.execPath, [cli, 'run', '--version'], { encoding: 'utf8' })).toBe(
			`${version}\n`,
		);
		expect(execFileSync(process.execPath, [cli, '--help'], { encoding: 'utf8' })).toMatch(
			/^Usage:\n {2}massgen run /,
		);
	});

	it("the commands bundle's compiled code is cached in the user's own temporary folder; the next start reads it", () => {
		const temp = mkdtempSync(join(tmpdir(), 'massgen-cache-tmp-'));
		const home = mkdtempSync(join(tmpdir(), 'massgen-cache-home-'));
		const env = { PATH: process.env['PATH'], HOME: home, TMPDIR: temp };
		const help = () =>
			execFileSync(process.execPath, [join(outdir, 'cli.js'), '--help'], { encoding: 'utf8', env });
		const cache = join(temp, `massgen-compile-cache-${process.getuid!()}`);
		// Each cache file and its identity: a cache that V8 rejected, or none, is written anew.
		const written = () =>
			readdirSync(cache, { recursive: true, encoding: 'utf8' })
				.filter((file) => statSync(join(cache, file)).isFile())
				.map((file) => `${file} ${statSync(join(cache, file)).ino} ${statSync(join(cache, file)).mtimeMs}`)
				.sort();
		const first = help();
		const files = written();
		expect(files.some((file) => file.includes('cli-commands.js') || file.startsWith('node/'))).toBe(true);
		expect(statSync(cache).mode & 0o777).toBe(0o700);
		expect(help()).toBe(first);
		expect(written()).toEqual(files);
		expect(readdirSync(home)).toEqual([]);
	});

	it('a cache folder that is not closed to others is not used', () => {
		const temp = mkdtempSync(join(tmpdir(), 'massgen-cache-tmp-'));
		const cache = join(temp, `massgen-compile-cache-${process.getuid!()}`);
		mkdirSync(cache, { mode: 0o777 });
		chmodSync(cache, 0o777);
		const env = { PATH: process.env['PATH'], TMPDIR: temp };
		expect(
			execFileSync(process.execPath, [join(outdir, 'cli.js'), '--help'], { encoding: 'utf8', env }),
		).toMatch(/^Usage:/);
		expect(readdirSync(cache)).toEqual([]);
	});

	it('a cache path that is a link (planted in the shared temporary folder) is not followed', () => {
		const temp = mkdtempSync(join(tmpdir(), 'massgen-cache-tmp-'));
		// Closed to others and ours, as a planted cache would look, but reached through a link.
		const target = mkdtempSync(join(tmpdir(), 'massgen-cache-target-'));
		chmodSync(target, 0o700);
		symlinkSync(target, join(temp, `massgen-compile-cache-${process.getuid!()}`));
		const env = { PATH: process.env['PATH'], TMPDIR: temp };
		expect(
			execFileSync(process.execPath, [join(outdir, 'cli.js'), '--help'], { encoding: 'utf8', env }),
		).toMatch(/^Usage:/);
		expect(readdirSync(target)).toEqual([]);
	});
});
