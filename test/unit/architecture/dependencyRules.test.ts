import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const repo = join(__dirname, '..', '..', '..');
const depcruise = join(repo, 'node_modules', '.bin', 'depcruise');
const config = join(repo, '.dependency-cruiser.cjs');

interface Violation {
	readonly rule: { readonly name: string };
	readonly from: string;
	readonly to: string;
}

interface Module {
	readonly source: string;
	readonly dependencies: readonly { readonly resolved: string }[];
}

interface Report {
	readonly violations: Violation[];
	readonly modules: Module[];
}

function cruise(root: string): Report {
	// To a file, not stdout: the whole tree's JSON report passed 1 MiB and arrived cut short in CI (stop 20).
	const report = join(mkdtempSync(join(tmpdir(), 'massgen-cruise-')), 'report.json');
	const run = spawnSync(
		depcruise,
		['src', 'webview', '--config', config, '--output-type', 'json', '--output-to', report],
		{
			cwd: root,
			encoding: 'utf8',
		},
	);
	if (run.error || run.status === null) {
		throw new Error(`depcruise did not finish: ${run.error?.message ?? run.signal}`);
	}
	try {
		const json = JSON.parse(readFileSync(report, 'utf8')) as {
			summary: { violations: Violation[] };
			modules: Module[];
		};
		return { violations: json.summary.violations, modules: json.modules };
	} finally {
		rmSync(dirname(report), { recursive: true, force: true });
	}
}

/**
 * The top folders of src/core that import each other, directly or round a loop, with each subfolder
 * folded into its top folder (`providers/spec` counts as `providers`): one line a group, names sorted.
 * Read from the import graph itself, so it holds whatever coreLayers says.
 */
function coreFolderLoops(modules: readonly Module[]): string[] {
	const top = (path: string): string | undefined => /^src\/core\/([^/]+)\//.exec(path)?.[1];
	const reaches = new Map<string, Set<string>>();
	for (const module of modules) {
		const from = top(module.source);
		for (const { resolved } of module.dependencies) {
			const to = top(resolved);
			if (from && to && from !== to) reaches.set(from, (reaches.get(from) ?? new Set()).add(to));
		}
	}
	for (let grew = true; grew;) {
		grew = false;
		for (const targets of reaches.values()) {
			for (const via of [...targets]) {
				for (const next of reaches.get(via) ?? []) {
					if (!targets.has(next)) grew = targets.add(next).size > 0;
				}
			}
		}
	}
	const loops = [...reaches].map(([folder, targets]) =>
		[folder, ...[...targets].filter((other) => other !== folder && reaches.get(other)?.has(folder))]
			.sort()
			.join(' ↔ '),
	);
	return [...new Set(loops.filter((loop) => loop.includes(' ↔ ')))].sort();
}

describe('the import rules (.dependency-cruiser.cjs)', () => {
	let source: Report | undefined;
	const sourceTree = (): Report => (source ??= cruise(repo));

	it('the source tree keeps them', () => {
		expect(sourceTree().violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`)).toEqual([]);
		// ~3 s alone; a loaded machine took 25 s.
	}, 120_000);

	it('no two top folders of src/core import each other, subfolders folded in', () => {
		expect(coreFolderLoops(sourceTree().modules)).toEqual([]);
	}, 120_000);

	// Guards the guard: a small tree breaking each rule once.
	const root = mkdtempSync(join(tmpdir(), 'massgen-deps-'));
	afterAll(() => rmSync(root, { recursive: true, force: true }));
	const files: Record<string, string> = {
		'tsconfig.json': '{ "compilerOptions": { "module": "ESNext", "moduleResolution": "bundler" } }',
		'src/core/a.ts': "import type { B } from './b.js';\nexport type A = B;\n",
		'src/core/b.ts': "import type { A } from './a.js';\nexport interface B { a?: A }\n",
		'src/contract/runEvents.ts': "import type { P } from '../protocol/p.js';\nexport type E = P;\n",
		'src/protocol/p.ts': "import type * as vscode from 'vscode';\nexport type P = vscode.Uri;\n",
		'webview/main.ts':
			"import type { P } from '../src/protocol/p.js';\nimport type { A } from '../src/core/a.js';\nexport type W = [P, A];\n",
		'src/cli/c.ts': "import { v } from '../vscode/v.js';\nexport const c = v;\n",
		'src/vscode/v.ts': 'export const v = 1;\n',
		'src/vscode/w.ts': "import { d } from '../cli/d.js';\nexport const w = d;\n",
		'src/cli/d.ts': 'export const d = 1;\n',
		'src/core/util/u.ts': "import { t } from '../tools/t.js';\nexport const u = t;\n",
		'src/core/tools/t.ts': 'export const t = 1;\n',
		'src/core/providers/spec/s.ts': "import { m } from '../createModel.js';\nexport const s = m;\n",
		'src/core/providers/createModel.ts': 'export const m = 1;\n',
		'src/core/newFolder/n.ts': "import { t } from '../tools/t.js';\nexport const n = t;\n",
		'src/core/changes/c.ts': "import type { P } from '../../protocol/p.js';\nexport type C = P;\n",
		'src/protocol/q.ts': "import { t } from '../core/tools/t.js';\nexport const q = t;\n",
		'src/vscode/common/f.ts': "import { v } from '../v.js';\nexport const f = v;\n",
		// config may import providers/spec; a coding agent importing config back closes a loop of top folders.
		'src/core/config/g.ts': "import { s } from '../providers/spec/s.js';\nexport const g = s;\n",
		'src/core/providers/codingAgents/k.ts': "import { g } from '../../config/g.js';\nexport const k = g;\n",
		'src/core/providers/decide.ts': "import { s } from './spec/s.js';\nexport const d = s;\n",
	};
	for (const [path, text] of Object.entries(files)) {
		mkdirSync(dirname(join(root, path)), { recursive: true });
		writeFileSync(join(root, path), text);
	}

	let breaches: Report | undefined;
	const breachTree = (): Report => (breaches ??= cruise(root));

	it('each rule catches its breach', () => {
		const found = breachTree()
			.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`)
			.sort();
		expect(found).toEqual([
			'cli-not-editor: src/cli/c.ts → src/vscode/v.ts',
			'contract-imports-nothing: src/contract/runEvents.ts → src/protocol/p.ts',
			'core-and-protocol-host-free: src/protocol/p.ts → vscode',
			'core-folder-has-layer: src/core/newFolder/n.ts → src/core/tools/t.ts',
			'core-not-protocol: src/core/changes/c.ts → src/protocol/p.ts',
			'core-providers-codingAgents: src/core/providers/codingAgents/k.ts → src/core/config/g.ts',
			'core-providers-part-has-place: src/core/providers/decide.ts → src/core/providers/spec/s.ts',
			'core-providers-spec: src/core/providers/spec/s.ts → src/core/providers/createModel.ts',
			'core-providers: src/core/providers/codingAgents/k.ts → src/core/config/g.ts',
			'core-util: src/core/util/u.ts → src/core/tools/t.ts',
			'editor-not-cli: src/vscode/w.ts → src/cli/d.ts',
			'no-circular: src/core/a.ts → src/core/b.ts',
			'protocol-over-contract: src/protocol/q.ts → src/core/tools/t.ts',
			'vscode-common-foundation: src/vscode/common/f.ts → src/vscode/v.ts',
			'webview-only-protocol: webview/main.ts → src/core/a.ts',
		]);
	});

	it('the fold into top folders finds config and providers importing each other', () => {
		expect(coreFolderLoops(breachTree().modules)).toEqual(['config ↔ providers']);
	});

	it.each([
		['\tutil: [],\n', "\tutil: ['tools'],\n", 'util may not import tools, listed after it'],
		[
			"\tspec: ['util', 'workspace'],\n",
			"\tspec: ['util', 'workspace', 'vendors'],\n",
			'providers/spec may not import vendors',
		],
	])('a layer naming one above it is refused when the rules load (%j)', (line, breach, refusal) => {
		const text = readFileSync(config, 'utf8');
		expect(text).toContain(line);
		const loop = join(root, 'loop.cjs');
		writeFileSync(loop, text.replace(line, breach));
		const run = spawnSync(depcruise, ['src', '--config', loop, '--output-type', 'err'], {
			cwd: root,
			encoding: 'utf8',
		});
		expect(run.status).not.toBe(0);
		expect(run.stderr + run.stdout).toContain(refusal);
	});
});
