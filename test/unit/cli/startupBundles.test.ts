import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Metafile } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
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
		expect(inputsOf('cli.js').sort()).toEqual(['package.json', 'src/cli/bundleLoader.ts', 'src/cli/main.ts']);
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

	it('each provider SDK bundle holds its SDK and no code of ours', () => {
		for (const [name, bundle] of Object.entries(providerSdkBundles)) {
			const inputs = inputsOf(`${bundle}.js`);
			expect(inputs.some((file) => file.startsWith(`node_modules/${name}/`))).toBe(true);
			expect(inputs.filter((file) => !file.startsWith('node_modules/'))).toEqual([]);
		}
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
});
