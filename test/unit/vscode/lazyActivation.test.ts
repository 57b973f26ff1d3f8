import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';

const repo = join(__dirname, '..', '..', '..');
const heavy = [
	/node_modules\/openai\//,
	/node_modules\/@anthropic-ai\//,
	/node_modules\/@google\/genai\//,
	/node_modules\/@modelcontextprotocol\//,
	/node_modules\/yaml\//,
	/^src\/core\/orchestrator\//,
	/^src\/core\/providers\//,
	/^src\/core\/config\/schema/,
	/^src\/core\/mcp\//,
	// The approval broker (a UI-free queue of questions, no engine) serves the panel's approval cards.
	/^src\/core\/permissions\/(?!approvalBroker\.ts$)/,
	/^src\/core\/tools\//,
	/^src\/vscode\/run\/runEngine\.ts$/,
];

/**
 * Activation loads no SDK (docs/architecture.md, Layers). `build:ext` makes two bundles: `dist/extension.js`
 * (activation and the glue) and `dist/engine.js` (orchestrator, providers, config, MCP,
 * permissions), which `loadEngineBundle` requires at the first run. This runs the very
 * `build:ext` command of package.json into a temporary folder and reads esbuild's metafile.
 */
describe('activation is lazy: build:ext makes a small extension bundle and a separate engine bundle', () => {
	let outdir: string;
	let meta: Metafile;

	beforeAll(() => {
		const scripts = (
			JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
		).scripts;
		const command = scripts['build:ext']!;
		expect(command).toMatch(/^esbuild /);
		expect(command).toContain('--outdir=dist');
		outdir = mkdtempSync(join(tmpdir(), 'massgen-build-ext-'));
		const args = command
			.replace(/^esbuild /, '')
			.split(/\s+/)
			.map((arg) => (arg === '--outdir=dist' ? `--outdir=${outdir}` : arg));
		execFileSync(
			join(repo, 'node_modules', '.bin', 'esbuild'),
			[...args, `--metafile=${join(outdir, 'meta.json')}`, '--log-level=error'],
			{ cwd: repo },
		);
		meta = JSON.parse(readFileSync(join(outdir, 'meta.json'), 'utf8')) as Metafile;
	}, 60_000);

	const inputsOf = (name: string) => {
		const output = Object.entries(meta.outputs).find(([file]) => file.endsWith(`/${name}`) || file === name);
		expect(output, name).toBeDefined();
		return Object.keys(output![1].inputs);
	};

	it('dist/extension.js holds none of the engine: no SDK, no orchestrator, providers, config schema, MCP or permissions', () => {
		const inputs = inputsOf('extension.js');
		expect(inputs).toContain('src/extension.ts');
		expect(inputs.filter((file) => heavy.some((pattern) => pattern.test(file)))).toEqual([]);
		// Only the path string: the engine is required at run time, not bundled.
		expect(readFileSync(join(outdir, 'extension.js'), 'utf8')).toContain('"engine.js"');
	});

	it('dist/engine.js holds the engine (SDKs, orchestrator, MCP client, permission engine)', () => {
		const inputs = inputsOf('engine.js');
		for (const pattern of [
			/node_modules\/openai\//,
			/node_modules\/@modelcontextprotocol\//,
			/^src\/core\/orchestrator\/orchestrator\.ts$/,
			/^src\/core\/permissions\/permissionEngine\.ts$/,
			/^src\/core\/tools\/guardedRunTools\.ts$/,
			/^src\/vscode\/run\/runEngine\.ts$/,
		]) {
			expect(
				inputs.some((file) => pattern.test(file)),
				String(pattern),
			).toBe(true);
		}
		// The engine is most of the code: activation reads a fraction of it. (The glue shares re2js
		// with the engine: secret-path globs must match in linear time in the editor too.)
		expect(statSync(join(outdir, 'extension.js')).size * 3).toBeLessThan(
			statSync(join(outdir, 'engine.js')).size,
		);
	});

	it('nothing in the extension bundle reaches the engine, not even through import()', async () => {
		// The same graph from source: every edge from src/extension.ts, dynamic ones included.
		const result = await build({
			entryPoints: [join(repo, 'src', 'extension.ts')],
			bundle: true,
			platform: 'node',
			format: 'cjs',
			target: 'node20',
			external: ['vscode'],
			write: false,
			metafile: true,
			absWorkingDir: repo,
			logLevel: 'silent',
		});
		const inputs = result.metafile.inputs;
		const walk = (follow: (kind: string) => boolean) => {
			const reached = new Set<string>();
			const queue = ['src/extension.ts'];
			while (queue.length) {
				const file = queue.pop()!;
				if (reached.has(file)) continue;
				reached.add(file);
				for (const edge of inputs[file]?.imports ?? []) {
					if (!edge.external && follow(edge.kind)) queue.push(edge.path);
				}
			}
			return [...reached];
		};
		const all = walk(() => true);
		expect(all.length).toBeGreaterThan(10);
		expect(all.filter((file) => heavy.some((pattern) => pattern.test(file)))).toEqual([]);
		// The panel's message schema (zod) is in the bundle, but only behind import(): it runs at the first panel message.
		const eager = walk((kind) => kind !== 'dynamic-import');
		expect(eager.filter((file) => /node_modules\/zod\//.test(file))).toEqual([]);
		// The stats core's reader (run store, zod) and report (the Team view's Stats, Show Team Stats,
		// Suggest a Team) too: at their first use. Its figures' formatting (`usd`) is eager: a line.
		const statsReaders = /^src\/core\/stats\/(runFacts|statsReport)\.ts$/;
		expect(all.filter((file) => statsReaders.test(file))).toHaveLength(2);
		expect(eager.filter((file) => statsReaders.test(file))).toEqual([]);
	});
});
