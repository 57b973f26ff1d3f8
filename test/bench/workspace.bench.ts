/**
 * `npm run bench:workspace`: the workspace tools on a monorepo (docs/tools-and-sandbox.md). Generates (once,
 * cached under the temp folder) a workspace of 100,000 files: packages of source folders, a wide
 * folder of 5,000 entries, a `.gitignore`d `node_modules` of 40,000 files and ignored `dist/` output,
 * and a `.git`. Measures, each the median of BENCH_REPEAT runs (default 3) on a fresh run snapshot:
 * - `search_files` through our tool, with ripgrep and with its own walker, for a rare literal, a regex
 *   and a word in every file, against `rg` on the same tree with the same ignore rules (the target:
 *   within 2× of ripgrep); and with ripgrep once an agent has read 1,000 files (searched in memory);
 * - `list_directory` of the wide folder;
 * - the run snapshot's memory after an agent read N files, and after a whole-workspace search
 *   (bytes of text it holds as UTF-16, and the heap growth when run with --expose-gc);
 * - the time to make a command's scratch (target: under 2 s): a copy, and the overlay (what runs use
 *   where the sandbox can mount one), and the time of one `true` command in each once it exists
 *   (for the overlay: the secrets look before and after, the mount, the nested sandbox).
 * Prints a table on stdout. BENCH_FILES overrides the tree's size; BENCH_REPEAT the repeats.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { detectSandbox } from '../../src/core/exec/sandbox/detectSandbox.js';
import { ScratchCopy } from '../../src/core/exec/commandScratch.js';
import { OverlayScratch } from '../../src/core/exec/overlayScratch.js';
import { runCommandTool } from '../../src/core/tools/runCommandTool.js';
import type { ScratchSpace } from '../../src/core/exec/scratchSpace.js';
import { createToolbox } from '../../src/core/tools/createToolbox.js';
import { ripgrepOnPath } from '../../src/core/util/ripgrepBinary.js';
import { createWorkspace } from '../../src/core/workspace/createWorkspace.js';
import type { Workspace } from '../../src/core/workspace/types.js';

const totalFiles = Number(process.env['BENCH_FILES'] ?? 100_000);
const repeat = Number(process.env['BENCH_REPEAT'] ?? 3);
const root = join(tmpdir(), `massgen-bench-workspace-${totalFiles}`);
const literal = 'needleLiteralXyz';
const regex = 'function\\s+handle[A-Z]\\w*Request\\(';
/** The same ignore rules as `search_files`: .gitignore without a repository, hidden files, never .git. */
const rgArgs = [
	'--no-require-git',
	'--hidden',
	'--no-ignore-global',
	'--no-ignore-parent',
	'--no-ignore-dot',
];
const rgExcludes = ['-g', '!.git', '-g', '!.massgen', '-g', '!node_modules', '--max-filesize', '1M'];

interface Layout {
	readonly wide: number;
	readonly modules: number;
	readonly dist: number;
	readonly git: number;
	readonly source: number;
}

function layout(): Layout {
	const scale = totalFiles / 100_000;
	const wide = Math.round(5_000 * scale);
	const modules = Math.round(40_000 * scale);
	const dist = Math.round(5_000 * scale);
	const git = Math.round(2_000 * scale);
	return { wide, modules, dist, git, source: totalFiles - wide - modules - dist - git };
}

function sourceText(i: number): string {
	const lines = [`import { helper${i % 97} } from '../shared/helper${i % 97}.js';`, ''];
	for (let f = 0; f < 12; f++) {
		const name = f === 3 && i % 1000 === 7 ? `handleUser${i}Request` : `compute${i}x${f}`;
		lines.push(`export function ${name}(input: number): number {`);
		lines.push(`\t// step ${f} of module ${i}: keeps the arithmetic readable`);
		lines.push(`\treturn helper${i % 97}(input * ${f + 1}) + ${i};`, '}', '');
	}
	if (i % 10_000 === 1234) lines.push(`// ${literal}`);
	return lines.join('\n');
}

function sourcePath(i: number): string {
	return `packages/pkg${i % 50}/src/mod${Math.floor(i / 50) % 40}/file${i}.ts`;
}

/** Writes the tree once; later runs reuse it (the marker file says it is complete). */
function generate(): Layout {
	const shape = layout();
	const marker = join(root, '.bench-complete');
	if (existsSync(marker)) return shape;
	rmSync(root, { recursive: true, force: true });
	const write = (path: string, text: string) => {
		const full = join(root, path);
		mkdirSync(join(full, '..'), { recursive: true });
		writeFileSync(full, text);
	};
	const ignoreRules = ['node_modules/', 'dist/', '*.log', 'coverage/', '.cache/'];
	for (let i = 0; i < 200; i++) ignoreRules.push(`generated/file${i}.ts`, `tmp-${i}-*`);
	write('.gitignore', `${ignoreRules.join('\n')}\n`);
	for (let i = 0; i < shape.source; i++) {
		write(sourcePath(i), sourceText(i));
	}
	for (let i = 0; i < shape.wide; i++) write(`wide/entry${i}.ts`, sourceText(i));
	for (let i = 0; i < shape.modules; i++) {
		write(
			`node_modules/dep${i % 400}/lib/part${i}.js`,
			`module.exports = function () { return '${literal}'; };\n`,
		);
	}
	for (let i = 0; i < shape.dist; i++) write(`packages/pkg${i % 50}/dist/out${i}.js`, `// ${literal}\n`);
	for (let i = 0; i < shape.git; i++) write(`.git/objects/${(i % 256).toString(16)}/obj${i}`, `${literal}\n`);
	write('.git/HEAD', 'ref: refs/heads/main\n');
	writeFileSync(marker, '');
	return shape;
}

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)]!;
}

async function timed(run: () => Promise<unknown>, runs = repeat): Promise<{ ms: number; last: unknown }> {
	const times: number[] = [];
	let last: unknown;
	for (let i = 0; i < runs; i++) {
		const start = performance.now();
		last = await run();
		times.push(performance.now() - start);
	}
	return { ms: median(times), last };
}

async function freshToolbox(
	ripgrep?: string,
): Promise<{ workspace: Workspace; toolbox: ReturnType<typeof createToolbox> }> {
	const workspace = await createWorkspace(root, { ripgrep });
	return { workspace, toolbox: createToolbox({ overlay: workspace.createOverlay(), writable: true }) };
}

function heldBytes(workspace: Workspace): { entries: number; bytes: number } {
	let entries = 0;
	let bytes = 0;
	for (const [path, entry] of workspace.runSnapshot.captured()) {
		entries++;
		bytes += path.length * 2 + (entry.kind === 'file' ? entry.text.length * 2 + entry.hash.length * 2 : 0);
	}
	return { entries, bytes };
}

const gc = (globalThis as { gc?: () => void }).gc;
function heapUsed(): number {
	gc?.();
	gc?.();
	return process.memoryUsage().heapUsed;
}

function rgMs(pattern: string): { ms: number; lines: number } {
	const times: number[] = [];
	let lines = 0;
	for (let i = 0; i < repeat; i++) {
		const start = performance.now();
		const result = spawnSync('rg', [...rgArgs, ...rgExcludes, '-n', '-e', pattern, '.'], {
			cwd: root,
			encoding: 'utf8',
			maxBuffer: 256 * 1024 * 1024,
		});
		times.push(performance.now() - start);
		lines = result.stdout.split('\n').filter(Boolean).length;
	}
	return { ms: median(times), lines };
}

/**
 * A run whose agent read `touched` files, measured while it is alive. Its own function: an async
 * function's locals outlive their block, and a run left in one would be freed during the next
 * measurement.
 */
async function readFiles(
	touched: number,
): Promise<{ held: { entries: number; bytes: number }; heap: number }> {
	const before = heapUsed();
	const { workspace, toolbox } = await freshToolbox();
	const signal = new AbortController().signal;
	for (let i = 0; i < touched; i++) {
		await toolbox.execute('read_file', { path: sourcePath(i) }, signal);
	}
	return { held: heldBytes(workspace), heap: heapUsed() - before };
}

const rows: [string, string, string][] = [];
const row = (what: string, value: string, note = '') => {
	rows.push([what, value, note]);
	console.error(`${what}: ${value} ${note}`);
};
const fmt = (ms: number) => `${ms.toFixed(0)} ms`;
const mib = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;

async function main(): Promise<void> {
	const started = performance.now();
	const shape = generate();
	row(
		'tree',
		`${totalFiles} files`,
		`${JSON.stringify(shape)}; generated/reused in ${fmt(performance.now() - started)}`,
	);
	// Warm the page cache so every engine reads the same cached tree.
	execFileSync('rg', ['--files', '--no-ignore', '--hidden', '.'], {
		cwd: root,
		maxBuffer: 256 * 1024 * 1024,
	});

	for (const [name, pattern] of [
		['literal', literal],
		['regex', regex],
		// Every file matches: the first 200 in path order end the search.
		['common word', 'return'],
	] as const) {
		const rg = rgMs(pattern);
		row(`rg ${name}`, fmt(rg.ms), `${rg.lines} matching lines`);
		for (const engine of [ripgrepOnPath() ?? undefined, undefined]) {
			const label = `search_files ${name} (${engine ? 'ripgrep' : 'walker'})`;
			let snapshot = { entries: 0, bytes: 0 };
			// The walker takes its full 30 s time limit on this tree: once is enough.
			const ours = await timed(
				async () => {
					const { workspace, toolbox } = await freshToolbox(engine);
					const outcome = await toolbox.execute('search_files', { pattern }, new AbortController().signal);
					snapshot = heldBytes(workspace);
					return outcome;
				},
				engine ? repeat : 1,
			);
			const text = (ours.last as { text: string }).text;
			const lines = text.split('\n');
			const cut = lines.find((line) => line.startsWith('(search cut'));
			row(
				label,
				fmt(ours.ms),
				`${(ours.ms / rg.ms).toFixed(2)}× rg; ${lines.filter((line) => !line.startsWith('(')).length} lines${cut ? `; ${cut}` : ''}`,
			);
			row(`  snapshot after that search`, mib(snapshot.bytes), `${snapshot.entries} entries captured`);
		}
	}

	{
		// The run's own view is searched in memory and merged with rg's results.
		const engine = ripgrepOnPath() ?? undefined;
		const { toolbox } = await freshToolbox(engine);
		const signal = new AbortController().signal;
		for (let i = 0; i < 1_000; i++) {
			await toolbox.execute('read_file', { path: sourcePath(i) }, signal);
		}
		const ours = await timed(() => toolbox.execute('search_files', { pattern: regex }, signal));
		const lines = (ours.last as { text: string }).text.split('\n').length;
		row(
			`search_files regex (${engine ? 'ripgrep' : 'walker'}), 1,000 files read`,
			fmt(ours.ms),
			`${lines} lines`,
		);
	}

	{
		const { workspace, toolbox } = await freshToolbox();
		const listing = await timed(() =>
			toolbox.execute('list_directory', { path: 'wide' }, new AbortController().signal),
		);
		row(
			'list_directory wide/',
			fmt(listing.ms),
			`${shape.wide} entries; ${heldBytes(workspace).entries} captured`,
		);
	}

	for (const touched of [100, 1_000, 10_000]) {
		const { held, heap } = await readFiles(touched);
		row(
			`snapshot after reading ${touched} files`,
			mib(held.bytes),
			`${held.entries} entries${gc ? `; heap +${mib(heap)}` : ' (run with --expose-gc for the heap figure)'}`,
		);
	}

	await scratchRows();

	const [load1, load5] = loadavg();
	console.log(
		`\nworkspace bench: ${totalFiles} files, ${cpus().length} CPUs, load ${load1!.toFixed(2)} / ${load5!.toFixed(2)}, median of ${repeat}\n`,
	);
	const width = Math.max(...rows.map(([what]) => what.length));
	for (const [what, value, note] of rows) {
		console.log(`${what.padEnd(width)}  ${value.padStart(10)}  ${note}`);
	}
}

/** Making each kind of scratch, and one command in it, through `run_command` on the real sandbox. */
async function scratchRows(): Promise<void> {
	const { sandbox } = await detectSandbox();
	const ripgrep = ripgrepOnPath(process.env) ?? undefined;
	const kinds: [string, () => ScratchSpace][] = [
		['copy', () => new ScratchCopy({ workspaceRoot: root, label: 'bench', dependencies: 'mount' })],
	];
	if (sandbox?.overlay && ripgrep) {
		const tools = sandbox.overlay;
		kinds.push([
			'overlay',
			() => new OverlayScratch({ workspaceRoot: root, label: 'bench', tools, ripgrep }),
		]);
	}
	for (const [kind, make] of kinds) {
		const made: number[] = [];
		const commands: number[] = [];
		let failure = '';
		for (let i = 0; i < repeat; i++) {
			const { workspace } = await freshToolbox();
			const scratch = make();
			const context = {
				agentId: 'bench',
				overlay: workspace.createOverlay(),
				phase: 'coordination' as const,
				signal: new AbortController().signal,
			};
			try {
				let start = performance.now();
				await scratch.prepare(new Map(), workspace.runSnapshot);
				made.push(performance.now() - start);
				if (sandbox === null) continue;
				const tool = runCommandTool({
					timeoutMs: 60_000,
					maxOutputBytes: 64 * 1024,
					parentEnv: { PATH: process.env['PATH'], HOME: tmpdir() },
					sandbox,
					network: false,
					workspaceRoot: root,
					scratch: () => scratch,
				});
				start = performance.now();
				const outcome = await tool.execute({ command: 'true' }, context);
				if (outcome.isError) throw new Error(outcome.text);
				commands.push(performance.now() - start);
			} catch (error) {
				failure = (error as Error).message;
			} finally {
				await scratch.dispose();
			}
		}
		row(`scratch: make the ${kind}`, made.length > 0 ? fmt(median(made)) : 'failed', failure);
		if (commands.length > 0) {
			row(`scratch: a command in the ${kind}`, fmt(median(commands)), '`true`, sandboxed');
		}
	}
}

void main();
