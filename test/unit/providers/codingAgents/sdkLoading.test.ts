import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const repo = join(__dirname, '..', '..', '..', '..');
const sdk = '@anthropic-ai/claude-agent-sdk';

/** Runs a package.json build script's esbuild command into a temporary folder; returns the folder. */
function build(script: 'build:cli' | 'build:ext'): string {
	const scripts = (
		JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
	).scripts;
	const outdir = mkdtempSync(join(tmpdir(), 'massgen-sdk-bundle-'));
	const args = scripts[script]!.replace(/^esbuild /, '')
		.replace(/ --banner:js="[^"]*"/, '')
		.split(/\s+/)
		.map((arg) =>
			arg === '--outdir=dist'
				? `--outdir=${outdir}`
				: arg === '--outfile=dist/cli.js'
					? `--outfile=${join(outdir, 'cli.js')}`
					: arg,
		);
	execFileSync(join(repo, 'node_modules', '.bin', 'esbuild'), [...args, '--log-level=error'], { cwd: repo });
	return outdir;
}

/**
 * Issue 14: the Agent SDK is ESM and reads `import.meta.url`, which a CJS bundle breaks, and its CLI
 * binary is ~400 MB: the bundles never hold it, they import it at run time (`loadClaudeSdk`), and
 * only the engine and the CLI, never the extension's activation bundle.
 */
describe('the Claude Agent SDK is loaded at run time, never bundled', () => {
	it('build:cli and build:ext keep it external, imported dynamically, and out of dist/extension.js', () => {
		const cli = readFileSync(join(build('build:cli'), 'cli.js'), 'utf8');
		const ext = build('build:ext');
		const engine = readFileSync(join(ext, 'engine.js'), 'utf8');
		const extension = readFileSync(join(ext, 'extension.js'), 'utf8');
		for (const bundle of [cli, engine]) {
			expect(bundle.split(`import("${sdk}")`)).toHaveLength(2);
			expect(bundle).not.toContain(`require("${sdk}")`);
			// Its own code (its query() entry) is not in the bundle.
			expect(bundle).not.toContain('CLAUDE_CODE_ENTRYPOINT');
		}
		expect(extension).not.toContain(sdk);
		expect(
			readdirSync(ext)
				.filter((name) => name.endsWith('.js'))
				.sort(),
		).toEqual(['engine.js', 'extension.js']);
	}, 60_000);
});
