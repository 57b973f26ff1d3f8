import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isBuiltin } from 'node:module';
import { join } from 'node:path';
import type { Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { buildCli } from '../../../scripts/buildCli.js';

const repo = join(__dirname, '..', '..', '..', '..');
const scripts = (
	JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
).scripts;

/**
 * Runs a package.json build script's esbuild command (its last, after `npm run build:sdk &&`) into a
 * temporary folder; returns the folder.
 */
function build(script: 'build:ext' | 'build:sdk', metafile = false): string {
	const outdir = mkdtempSync(join(tmpdir(), 'massgen-sdk-bundle-'));
	const command = scripts[script]!.split(' && ').pop()!;
	expect(command).toMatch(/^esbuild /);
	const args = command
		.replace(/^esbuild /, '')
		.split(/\s+/)
		.map((arg) => (arg === '--outdir=dist' ? `--outdir=${outdir}` : arg));
	const meta = metafile ? [`--metafile=${join(outdir, 'meta.json')}`] : [];
	execFileSync(join(repo, 'node_modules', '.bin', 'esbuild'), [...args, ...meta, '--log-level=error'], {
		cwd: repo,
	});
	return outdir;
}

/**
 * Issue 14: both SDKs are ESM and read `import.meta.url`, which a CJS bundle breaks, and their CLI
 * binaries are ~400 MB. `build:sdk` bundles each into its own ESM file in dist/ (what the .vsix and
 * the CLI ship); the CLI and engine bundles import those files at run time, hold none of the SDKs'
 * code, and the extension's activation bundle never names them.
 */
describe('the coding agents SDKs: their own files in dist/, loaded at run time', () => {
	it('build:sdk writes one self-contained ESM file per SDK', () => {
		const out = build('build:sdk', true);
		expect(
			readdirSync(out)
				.filter((name) => name.endsWith('.mjs'))
				.sort(),
		).toEqual(['claude-agent-sdk.mjs', 'codex-sdk.mjs']);
		const meta = JSON.parse(readFileSync(join(out, 'meta.json'), 'utf8')) as Metafile;
		const output = (file: string) => Object.entries(meta.outputs).find(([path]) => path.endsWith(file))![1];
		for (const [file, folder] of [
			['claude-agent-sdk.mjs', 'node_modules/@anthropic-ai/claude-agent-sdk/'],
			['codex-sdk.mjs', 'node_modules/@openai/codex-sdk/'],
		] as const) {
			// Only the SDK's own code, and no import but Node's own modules.
			expect(Object.keys(output(file).inputs).filter((input) => !input.includes(folder))).toEqual([]);
			expect(output(file).imports.filter((entry) => !isBuiltin(entry.path))).toEqual([]);
		}
		expect(readFileSync(join(out, 'claude-agent-sdk.mjs'), 'utf8')).toContain('CLAUDE_CODE_ENTRYPOINT');
		expect(readFileSync(join(out, 'codex-sdk.mjs'), 'utf8')).toContain('Unable to locate Codex CLI binaries');
	}, 60_000);

	it('build:cli and build:ext import the shipped files from their own folder; dist/extension.js names no SDK', async () => {
		// build:cli's bundles (test/scripts/buildCli.ts): the run is in cli-commands.js, which requires
		// shipped-sdk.js (shippedSdk.ts alone) for the coding agents' files; read as one.
		expect(scripts['build:cli']).toMatch(/^npm run build:sdk && tsx test\/scripts\/buildCli\.ts$/);
		const cliOut = mkdtempSync(join(tmpdir(), 'massgen-sdk-bundle-'));
		await buildCli(cliOut);
		const cli = ['cli-commands.js', 'shipped-sdk.js']
			.map((file) => readFileSync(join(cliOut, file), 'utf8'))
			.join('\n');
		const ext = build('build:ext');
		const engine = readFileSync(join(ext, 'engine.js'), 'utf8');
		const extension = readFileSync(join(ext, 'extension.js'), 'utf8');
		for (const bundle of [cli, engine]) {
			for (const file of ['claude-agent-sdk.mjs', 'codex-sdk.mjs']) {
				expect(bundle.split(`"${file}"`)).toHaveLength(2);
			}
			// MASSGEN_SDK_DIR is the bundle's folder.
			expect(bundle).toContain('typeof __dirname !== "string"');
			expect(bundle).not.toContain('require("@anthropic-ai/claude-agent-sdk")');
			expect(bundle).not.toContain('require("@openai/codex-sdk")');
			// Neither SDK's own code is in the bundle.
			expect(bundle).not.toContain('CLAUDE_CODE_ENTRYPOINT');
			expect(bundle).not.toContain('Unable to locate Codex CLI binaries');
		}
		const sdkFiles = ['claude-agent-sdk.mjs', 'codex-sdk.mjs'];
		for (const name of ['@anthropic-ai/claude-agent-sdk', '@openai/codex-sdk', ...sdkFiles]) {
			expect(extension).not.toContain(name);
		}
		expect(
			readdirSync(ext)
				.filter((name) => name.endsWith('.js'))
				.sort(),
		).toEqual(['engine.js', 'extension.js']);
	}, 60_000);
});
